// Saves a download atomically: bytes stream into NAME.part (hashed on the way), the digest is
// checked against the expected blake3 when there is one, and only then is the file renamed to
// its final name. A body that breaks mid-way is resumed with Range when the server allows it,
// else restarted; a failed or interrupted download leaves nothing behind.
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { ExitCode, WesError } from '../errors.js';
import { createBlake3, formatBlake3, sameHash, updateFromFile, type Blake3Hasher } from './blake3.js';

export interface OpenedBody {
  status: number;
  body: Readable;
}

export interface SaveOptions {
  dir: string;
  /** A name already made safe and unique (see UniqueNames). */
  name: string;
  /** Opens the body from `offset` (send `Range: bytes=offset-` when offset > 0). */
  open: (offset: number) => Promise<OpenedBody>;
  expectedHash?: string | null;
  /**
   * Asked once the bytes are in, when `expectedHash` is empty: a hash the server computes lazily
   * may be known by then (e.g. by re-reading the job).
   */
  lateExpectedHash?: () => Promise<string | null | undefined>;
  expectedSize?: number | null;
  /** Extra tries after a broken body (default 3). */
  resumeAttempts?: number;
  onProgress?: (bytes: number) => void;
}

export interface SavedFile {
  path: string;
  name: string;
  bytes: number;
  hash: string;
  verified: boolean;
}

export class IntegrityError extends WesError {
  constructor(message: string) {
    super(message, { exitCode: ExitCode.ERROR, code: 'integrity_check_failed', hint: 'the file was not kept; download it again' });
  }
}

/**
 * Appends a body to the part file, hashing what arrives. When the body breaks, every byte that
 * did arrive is still written out (the file is ended, not destroyed), so the file holds exactly
 * the hashed bytes and the download can go on from there.
 */
async function appendBody(
  body: Readable,
  partPath: string,
  from: number,
  hasher: Blake3Hasher,
  onProgress?: (bytes: number) => void,
): Promise<{ received: number; failure?: unknown }> {
  const out = createWriteStream(partPath, { flags: from > 0 ? 'a' : 'w', highWaterMark: 1 << 20 });
  // Listens for a write error (disk full) from the start; it is thrown once the file is ended.
  const written = finished(out);
  written.catch(() => undefined);
  let received = 0;
  let failure: unknown;
  try {
    for await (const chunk of body) {
      hasher.update(chunk as Buffer);
      received += (chunk as Buffer).length;
      onProgress?.(from + received);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } catch (err) {
    failure = err;
    body.destroy();
  }
  out.end();
  await written;
  return { received, failure };
}

/** A hasher fed with the first `bytes` bytes of a file. */
async function hashPrefix(path: string, bytes: number): Promise<Blake3Hasher> {
  const hasher = await createBlake3();
  await updateFromFile(hasher, path, 0, bytes);
  return hasher;
}

export async function saveToFile(opts: SaveOptions): Promise<SavedFile> {
  const finalPath = join(opts.dir, opts.name);
  const partPath = `${finalPath}.part`;
  let hasher: Blake3Hasher = await createBlake3();
  let written = 0;
  let triesLeft = opts.resumeAttempts ?? 3;
  try {
    for (;;) {
      const res = await opts.open(written);
      if (written > 0 && res.status !== 206) {
        written = 0; // the server ignored Range: start over
        hasher = await createBlake3();
      }
      const { received, failure } = await appendBody(res.body, partPath, written, hasher, opts.onProgress);
      written += received;
      if (failure === undefined) break;
      if ((failure as Error).name === 'AbortError' || triesLeft-- <= 0) throw failure;
      // The file should hold exactly the hashed bytes; if anything disagrees, trust the file.
      const onDisk = await stat(partPath).then((s) => s.size, () => 0);
      if (onDisk !== written) {
        hasher = await hashPrefix(partPath, onDisk);
        written = onDisk;
      }
    }
    const hash = formatBlake3(hasher);
    if (opts.expectedSize != null && written !== opts.expectedSize) {
      throw new IntegrityError(`${opts.name}: got ${written} bytes, expected ${opts.expectedSize}`);
    }
    const expected = opts.expectedHash || (await opts.lateExpectedHash?.());
    if (expected && !sameHash(expected, hash)) {
      throw new IntegrityError(`${opts.name}: blake3 mismatch (expected ${expected}, got ${hash})`);
    }
    await rename(partPath, finalPath);
    return { path: finalPath, name: opts.name, bytes: written, hash, verified: Boolean(expected) };
  } catch (err) {
    await rm(partPath, { force: true });
    throw err;
  }
}
