// Saves a download atomically: bytes stream into NAME.part (hashed on the way), the digest is
// checked against the expected blake3 when there is one, and only then is the file renamed to
// its final name. A body that breaks mid-way is resumed with Range when the server allows it,
// else restarted; a failed or interrupted download leaves nothing behind.
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { ExitCode, WesError } from '../errors.js';
import { createBlake3, HashingStream, sameHash, type Blake3Hasher } from './blake3.js';

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

function progressCounter(start: number, onProgress?: (bytes: number) => void): Transform {
  let bytes = start;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      onProgress?.(bytes);
      done(null, chunk);
    },
  });
}

/** A hasher fed with the first `bytes` bytes of a file. */
async function hashPrefix(path: string, bytes: number): Promise<Blake3Hasher> {
  const hasher = await createBlake3();
  if (bytes > 0) for await (const chunk of createReadStream(path, { start: 0, end: bytes - 1 })) hasher.update(chunk as Buffer);
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
      const hashing = new HashingStream(hasher);
      try {
        await pipeline(res.body, hashing, progressCounter(written, opts.onProgress), createWriteStream(partPath, { flags: written > 0 ? 'a' : 'w', highWaterMark: 1 << 20 }));
        written += hashing.bytes;
        break;
      } catch (err) {
        written += hashing.bytes;
        if ((err as Error).name === 'AbortError' || triesLeft-- <= 0) throw err;
        // The writer may drop chunks the hasher already saw when the body breaks: resume from
        // what the file really holds, re-hashing it when the two differ.
        const onDisk = await stat(partPath).then((s) => s.size, () => 0);
        if (onDisk !== written) {
          hasher = await hashPrefix(partPath, onDisk);
          written = onDisk;
        }
      }
    }
    const hash = `blake3:${hasher.digest('hex')}`;
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
