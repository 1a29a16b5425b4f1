// Where node definitions come from: a saved object_info file (offline), or the server's
// /api/object_info through the v1 client, cached per base URL (--refresh asks again).
import type { Factory } from '../../factory.js';
import { UsageError, WesError } from '../../errors.js';
import { LegacyClient, readObjectInfo } from '../../clients/legacy/client.js';
import { ObjectInfoCache } from '../../clients/legacy/object-info-cache.js';
import { readLocalText } from '../../workflows/workflow-file.js';
import type { ObjectInfo } from '../../workflows/node-defs.js';

export interface LoadedObjectInfo {
  info: ObjectInfo;
  /** Says where the definitions came from, for messages. */
  origin: string;
  /** Set when they came from the cache: a class the server gained since then is unknown here. */
  cachedAt?: string;
  /** They came from a saved file (--object-info), not the server. */
  fromFile?: boolean;
}

export interface ObjectInfoOptions {
  objectInfo?: string;
  refresh?: boolean;
}

async function fromFile(path: string): Promise<LoadedObjectInfo> {
  const text = await readLocalText(path);
  const info = readObjectInfo(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!info) throw new UsageError(`${path} is not an object_info document (a JSON object keyed by node class)`, 'save the server\'s definitions with: wes api GET /api/object_info > object_info.json');
  return { info, origin: path, fromFile: true };
}

export async function loadObjectInfo(f: Factory, opts: ObjectInfoOptions): Promise<LoadedObjectInfo> {
  if (opts.objectInfo !== undefined) return fromFile(opts.objectInfo);
  const settings = f.settings();
  const cache = new ObjectInfoCache(f.store(), settings.profile, settings.engineUrl);
  if (!opts.refresh) {
    const cached = await cache.read();
    const info = cached && readObjectInfo(cached.text);
    if (cached && info) {
      f.io.debug(`object_info of ${settings.engineUrl} from the cache (fetched ${cached.fetchedAt})`);
      return { info, origin: `${settings.engineUrl} (cached ${cached.fetchedAt})`, cachedAt: cached.fetchedAt };
    }
  }
  const { text, info } = await f.client(LegacyClient).objectInfoExact().catch((err: unknown) => {
    if (err instanceof WesError && !err.hint) err.hint = 'the node definitions come from the server\'s /api/object_info; give a saved copy with --object-info FILE instead';
    throw err;
  });
  await cache.write(text).catch((err: Error) => f.io.debug(`object_info not cached: ${err.message}`));
  return { info, origin: settings.engineUrl };
}
