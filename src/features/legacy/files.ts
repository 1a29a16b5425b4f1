// Saving what a v1 job produced: preview frames from the WebSocket (named by node and sequence)
// and output files behind /api/view. Names are made safe and unique; files land via NAME.part.
import type { HashSetting } from '../../util/blake3-setting.js';
import { Readable } from 'node:stream';
import { saveToFile, type FileChoices, type SavedFile } from '../../files/save.js';
import { makeFolders } from '../../files/safe-file.js';
import { UniqueNames } from '../../files/safe-name.js';
import { checkFolderTarget } from '../../files/targets.js';
import type { LegacyClient, ViewRef } from '../../clients/legacy/client.js';
import type { ImageFormat } from '../../protocol/legacy-frames.js';
import type { NodeFileRef } from '../../clients/legacy/tracker.js';
import { hashOwnFile } from '../../files/existing.js';
import { createBlake3, formatBlake3, sameHash } from '../../files/blake3.js';

/** Output folders are checked before the prompt is sent (exit 2 when unusable). */
export async function checkLegacyTargets(opts: { download?: string; previews?: string }): Promise<void> {
  if (typeof opts.download === 'string') await checkFolderTarget(opts.download, '--download');
  if (typeof opts.previews === 'string') await checkFolderTarget(opts.previews, '--previews');
}

export class PreviewSaver {
  private readonly names = new UniqueNames();
  private sequence = 0;
  private ready: Promise<unknown> | null = null;

  constructor(
    private readonly dir: string,
    private readonly choices: FileChoices = {},
  ) {}

  async save(node: string | null, format: ImageFormat, image: Uint8Array): Promise<SavedFile> {
    this.ready ??= makeFolders(this.dir);
    await this.ready;
    this.sequence++;
    const name = this.names.reserve(`node-${node ?? 'unknown'}-${String(this.sequence).padStart(4, '0')}.${format === 'png' ? 'png' : 'jpg'}`, 'preview');
    return saveToFile({ dir: this.dir, name, open: async () => ({ status: 200, body: Readable.from([Buffer.from(image)]) }), ...this.choices });
  }
}

/** Saves the file behind an output reference as dir/name (a name already made safe), taking its body as chunks. */
export function saveViewed(client: LegacyClient, ref: ViewRef, dir: string, name: string, choices: FileChoices = {}): Promise<SavedFile> {
  return saveToFile({
    dir,
    name,
    // /api/view serves whole files; a broken transfer starts over (saveToFile sees no 206).
    open: async () => {
      const res = await client.viewChunks(ref);
      return { status: res.status, body: res.body };
    },
    ...choices,
  });
}

/** Downloads the final outputs (`type: output`) through /api/view's signed redirect. */
export async function downloadOutputs(
  client: LegacyClient,
  refs: NodeFileRef[],
  dir: string,
  onSaved: (file: SavedFile, ref: NodeFileRef) => void,
  choices: FileChoices = {},
): Promise<SavedFile[]> {
  await makeFolders(dir);
  const names = new UniqueNames();
  const saved: SavedFile[] = [];
  for (const ref of refs.filter((r) => r.type === 'output')) {
    const name = names.reserve(ref.filename, 'output');
    const file = await saveViewed(client, ref, dir, name, choices);
    saved.push(file);
    onSaved(file, ref);
  }
  return saved;
}

/**
 * Whether the file already at `path` holds the bytes the server serves for `ref`: /api/view names
 * no hash, so the served bytes are hashed as they arrive (nothing is written). Null when there is
 * no plain file of ours at `path` to compare.
 */
export async function holdsServedBytes(client: LegacyClient, ref: ViewRef, path: string, hashing?: HashSetting): Promise<{ same: boolean; hash: string; bytes: number } | null> {
  const local = await hashOwnFile(path, hashing);
  if (local === undefined) return null;
  const res = await client.viewChunks(ref);
  const hasher = await createBlake3(hashing);
  let bytes = 0;
  await res.body.forEach((chunk) => {
    hasher.update(chunk);
    bytes += chunk.length;
  });
  const served = formatBlake3(hasher);
  return { same: sameHash(served, local), hash: served, bytes };
}
