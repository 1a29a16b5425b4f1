// Saves one asset: its bytes come from the asset's content route (served directly where the server
// stores them, else a redirect to a fresh signed URL on each attempt) or, where a deployment lacks
// that route, from the record's own `url` (re-read when it has expired). Checked against the
// record's blake3, asked again when still null.
import { ApiError } from '../../errors.js';
import { saveToFile, type FileChoices, type OpenedBody } from '../../files/save.js';
import { makeFolders } from '../../files/safe-file.js';
import type { FetchedAsset, JobsClient } from './client.js';
import { savedOutputOf, urlExpired, type SavedOutput } from './download.js';

export async function downloadAsset(client: JobsClient, start: FetchedAsset, dir: string, name: string, choices: FileChoices = {}): Promise<SavedOutput> {
  await makeFolders(dir);
  const id = start.asset.id;
  let record = start;
  let contentRoute = true;
  const open = async (offset: number): Promise<OpenedBody> => {
    if (contentRoute) {
      try {
        const res = await client.assetContent(id, offset);
        return { status: res.status, body: res.body, headers: res.headers };
      } catch (err) {
        if (!(err instanceof ApiError) || err.origin !== 'jobs' || err.status !== 404) throw err;
        contentRoute = false;
      }
    }
    if (urlExpired(record.asset, client.http.clock.now())) record = await client.getAsset(id);
    const res = await client.content(client.http.link(record.asset.url, record.from), offset);
    return { status: res.status, body: res.body, headers: res.headers };
  };
  const file = await saveToFile({
    dir,
    name,
    open,
    expectedHash: start.asset.hash,
    expectedSize: typeof start.asset.size_bytes === 'number' ? start.asset.size_bytes : null,
    lateExpectedHash: async () => (record = await client.getAsset(id)).asset.hash,
    ...choices,
  });
  return savedOutputOf(file, id);
}
