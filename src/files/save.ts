// Saves a download: bytes stream into NAME.part (hashed on the way), the digest is checked against
// the expected blake3 when there is one, and only then does the file take its final name. A body
// that breaks mid-way is resumed with Range when the server allows it, else restarted. A download
// cut short (Ctrl-C, SIGTERM, a dead or stalled connection, even kill -9) keeps its .part, and the
// next run goes on from its last byte with the hash continued over the bytes on disk, so the final
// check covers the whole file. Only bytes that fail the check are thrown away.
//
// Bytes count over declarations: a declared size (a job's `size_bytes`, which a server may report
// as 0 for every output) never stands for the content. The content is always asked for, and what
// arrives is checked against what the transfer itself says (Content-Length, Content-Range, which
// undici also enforces); a declared size that disagrees with a whole transfer is reported on the
// saved file, not taken as a failure. A declared hash is checked and a mismatch is a failure.
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FileHandle } from 'node:fs/promises';
import { unlink } from 'node:fs/promises';
import { ApiError, ExitCode, InterruptedError, TimeoutError, WesError } from '../errors.js';
import { chunksOf, type ChunkedBody } from '../http/chunked-body.js';
import { createBlake3, sameHash } from './blake3.js';
import { partOnThread, threadPays, warmPartThread } from './part-thread.js';
import type { HashSetting } from '../util/blake3-setting.js';
import { updateFromFile } from '../util/blake3.js';
import { checkExisting, type ExistingPolicy } from './existing.js';
import { openPart } from './part-file.js';
import { lockPart } from './part-lock.js';
import { LocalPart, type PartStream } from './part-writer.js';
import { commitFile } from './safe-file.js';

export interface OpenedBody {
  status: number;
  /** Chunks taken as they arrive (HttpClient's *Chunks downloads), or a stream. */
  body: ChunkedBody | Readable;
  /** The answer's headers (lower-case names): the transfer's own length, and its range. */
  headers?: Record<string, string>;
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
  /** A file already at the name: refuse (default), clobber or skip (see existing.ts). */
  existing?: ExistingPolicy;
  /** Warnings (a part file that had to be moved aside). */
  warn?: (line: string) => void;
  /** Told when a download that did not finish left its bytes in a .part for the next run. */
  onKept?: (part: KeptPart) => void;
  /** WES_BLAKE3 and WES_PART_THREAD of the run (the Factory's hashing()); default the process's environment. */
  hashing?: HashSetting;
}

/** What the caller decides about the files on disk: an existing file, warnings, a kept .part, how to hash. */
export type FileChoices = Pick<SaveOptions, 'existing' | 'warn' | 'onKept' | 'hashing'>;

export interface KeptPart {
  path: string;
  bytes: number;
  total: number | null;
}

export interface SavedFile {
  path: string;
  name: string;
  bytes: number;
  /** blake3 of the bytes; null for a file kept by --skip-existing that wes did not read (a link). */
  hash: string | null;
  verified: boolean;
  /** Set when nothing was written: the same bytes were there, or --skip-existing kept the file. */
  kept?: 'same' | 'skip-existing';
  /** The size the server declared, when it disagrees with the bytes a whole transfer delivered. */
  declaredSize?: number;
}

export class IntegrityError extends WesError {
  constructor(message: string) {
    super(message, { exitCode: ExitCode.ERROR, code: 'integrity_check_failed', hint: 'the file was not kept; download it again' });
  }
}

/** A local part stream whose hash starts from the first `bytes` bytes of the file (the part kept by an earlier run). */
async function localPartFrom(handle: FileHandle, bytes: number, hashing: HashSetting | undefined): Promise<PartStream> {
  const hasher = await createBlake3(hashing);
  await updateFromFile(hasher, handle, 0, bytes);
  return new LocalPart(handle, hasher, bytes);
}

/** Ctrl-C, SIGTERM or --timeout: the body broke because the command is stopping, not the network. */
function stopsTheCommand(err: unknown): boolean {
  return (err as Error).name === 'AbortError' || err instanceof InterruptedError || err instanceof TimeoutError;
}

function isRangeRefused(err: unknown): boolean {
  return err instanceof ApiError && err.status === 416;
}

/** A 416 whose `Content-Range: bytes *\/N` says the whole content is N bytes, which the part already holds. */
function alreadyWhole(err: unknown, held: number): boolean {
  return err instanceof ApiError && err.status === 416 && /^bytes \*\/(\d+)$/.exec(err.headers['content-range'] ?? '')?.[1] === String(held);
}

/** The length of the whole content as the answer states it: Content-Range's total on a 206, Content-Length on a 200; undefined when unsaid. */
function statedTotal(res: OpenedBody): number | undefined {
  const h = res.headers ?? {};
  if (res.status === 206) {
    const total = /\/(\d+)$/.exec(h['content-range'] ?? '')?.[1];
    return total === undefined ? undefined : Number(total);
  }
  return h['content-length'] !== undefined && /^\d+$/.test(h['content-length']) ? Number(h['content-length']) : undefined;
}

export class TransferMismatchError extends WesError {
  constructor(message: string) {
    super(message, { exitCode: ExitCode.ERROR, code: 'transfer_incomplete', hint: 'the partial file was kept; run the same command again to go on from it' });
  }
}

class Download {
  /** The part file and the hash of its bytes, from the first byte on. */
  part!: PartStream;
  written = 0;

  constructor(
    private readonly opts: SaveOptions,
    private readonly handle: FileHandle,
  ) {}

  async resumeFrom(kept: number): Promise<void> {
    this.part?.drop();
    this.part = await localPartFrom(this.handle, kept, this.opts.hashing);
    this.written = kept;
  }

  async restart(): Promise<void> {
    await this.handle.truncate(0);
    await this.resumeFrom(0);
  }

  /**
   * Fetches whatever is missing, resuming after breaks; throws when it cannot get it all. The
   * content is always asked for, even when a declared size says there is nothing (or nothing
   * more) to fetch: only the server's answer says where the content ends.
   */
  async fetchRest(): Promise<void> {
    let triesLeft = this.opts.resumeAttempts ?? 3;
    for (;;) {
      let res: OpenedBody;
      try {
        res = await this.opts.open(this.written);
      } catch (err) {
        if (this.written === 0 || !isRangeRefused(err)) throw err;
        if (alreadyWhole(err, this.written)) return; // the kept part is the whole content
        await this.restart(); // the kept bytes are not a prefix the server recognises
        continue;
      }
      if (this.written > 0 && res.status !== 206) {
        // The server ignored Range. A restart that fails must still give up the body, or its
        // connection stays open, paused (undici's body timeout does not run while paused).
        await this.restart().catch((err: unknown) => {
          res.body.destroy();
          throw err;
        });
      }
      const total = statedTotal(res);
      const { received, failure } = await this.append(res.body, total);
      this.written += received;
      // undici holds a body to its Content-Length; a range that ends short of its stated total is not the whole content.
      const short = failure === undefined && total !== undefined && this.written !== total ? new TransferMismatchError(`${this.opts.name}: the server stated ${total} bytes and sent ${this.written}`) : undefined;
      if (failure === undefined && short === undefined) return;
      if (short && triesLeft-- <= 0) throw short;
      if (short) continue;
      if (stopsTheCommand(failure) || triesLeft-- <= 0) throw failure;
      // The file should hold exactly the hashed bytes; if anything disagrees, trust the file.
      const onDisk = (await this.handle.stat()).size;
      if (onDisk !== this.written) await this.resumeFrom(onDisk);
    }
  }

  /**
   * Appends a body to the part file, hashing what arrives. When the body breaks, every byte that
   * did arrive is still written out, so the file holds exactly the hashed bytes (a write that fails
   * part-way is caught by fetchRest, which trusts the file) and the download can go on from there.
   */
  private async append(opened: ChunkedBody | Readable, total: number | undefined): Promise<{ received: number; failure?: unknown }> {
    const body = opened instanceof Readable ? chunksOf(opened) : opened;
    let arrived = 0;
    let failure: unknown;
    try {
      await body.forEach((chunk) => {
        if (arrived === 0 && this.written === 0) this.moveToThreadIfItPays(chunk, total);
        this.part.add(chunk);
        arrived += chunk.length;
        this.opts.onProgress?.(this.written + arrived);
      });
    } catch (err) {
      failure = err;
      body.destroy();
    }
    const settled = await this.part.settle();
    // A write that failed is why the body was given up, if it was.
    return { received: settled.bytes, failure: settled.failure ?? failure };
  }

  /** At the first byte of a transfer: its writes and hash go to the part thread when that pays (see part-thread.ts). */
  private moveToThreadIfItPays(first: Uint8Array, total: number | undefined): void {
    if (!threadPays(first, total, this.opts.hashing?.partThread)) return;
    const threaded = partOnThread(this.handle.fd, this.opts.hashing);
    if (!threaded) return;
    this.part.drop();
    this.part = threaded;
  }

  /**
   * The integrity problem with what is in the file (a declared hash it does not have), or its
   * digest, with the declared size when that disagrees with the bytes (not a failure by itself:
   * the transfer was whole).
   */
  async problem(): Promise<{ message: string } | { hash: string; verified: boolean; declaredSize?: number }> {
    const hash = `blake3:${await this.part.digest()}`;
    const { name, expectedSize } = this.opts;
    const expected = this.opts.expectedHash || (await this.opts.lateExpectedHash?.());
    if (expected && !sameHash(expected, hash)) return { message: `${name}: blake3 mismatch (expected ${expected}, got ${hash})` };
    const declaredSize = expectedSize != null && this.written !== expectedSize ? expectedSize : undefined;
    return declaredSize === undefined ? { hash, verified: Boolean(expected) } : { hash, verified: Boolean(expected), declaredSize };
  }
}

export async function saveToFile(opts: SaveOptions): Promise<SavedFile> {
  const finalPath = join(opts.dir, opts.name);
  const policy = opts.existing ?? 'refuse';
  const verdict = await checkExisting(finalPath, policy, { hash: opts.expectedHash, size: opts.expectedSize }, opts.hashing);
  if (verdict.action === 'keep') {
    return { path: finalPath, name: opts.name, bytes: verdict.bytes, hash: verdict.hash, verified: verdict.same, kept: verdict.same ? 'same' : 'skip-existing' };
  }
  const release = await lockPart(finalPath);
  try {
    return await saveUnderLock(opts, finalPath, policy);
  } finally {
    await release();
  }
}

async function saveUnderLock(opts: SaveOptions, finalPath: string, policy: ExistingPolicy): Promise<SavedFile> {
  const part = await openPart(finalPath, opts.warn ?? (() => undefined));
  // A resumed part stays on this thread (the thread's hash cannot start mid-file): no thread to start for it.
  if (part.size === 0) warmPartThread(opts.expectedSize, opts.hashing);
  const download = new Download(opts, part.handle);
  let integrityFailed = false;
  try {
    await download.resumeFrom(part.size);
    await download.fetchRest();
    let outcome = await download.problem();
    if (part.size > 0 && ('message' in outcome || outcome.declaredSize !== undefined)) {
      // Bytes kept by an earlier run that do not add up: fetch the whole file once more.
      await download.restart();
      await download.fetchRest();
      outcome = await download.problem();
    }
    if ('message' in outcome) {
      integrityFailed = true;
      throw new IntegrityError(outcome.message);
    }
    // The bytes hashed are the bytes in the file: nothing else wrote into the part meanwhile.
    const onDisk = (await part.handle.stat()).size;
    if (onDisk !== download.written) {
      integrityFailed = true;
      throw new IntegrityError(`${opts.name}: ${part.path} holds ${onDisk} bytes where this download wrote ${download.written}: something else wrote into it`);
    }
    await part.handle.close();
    await commitFile(part.path, finalPath, policy === 'clobber');
    const saved: SavedFile = { path: finalPath, name: opts.name, bytes: download.written, hash: outcome.hash, verified: outcome.verified };
    if (outcome.declaredSize !== undefined) saved.declaredSize = outcome.declaredSize;
    return saved;
  } catch (err) {
    await part.handle.close().catch(() => undefined);
    if (integrityFailed || download.written === 0) await unlink(part.path).catch(() => undefined);
    else opts.onKept?.({ path: part.path, bytes: download.written, total: opts.expectedSize ?? null });
    throw err;
  }
}
