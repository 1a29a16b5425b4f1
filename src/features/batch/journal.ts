// The journal of a batch: one NDJSON record per event that must survive a crash, appended with a
// plain write(2) on an O_APPEND descriptor the moment it happens (no user-space buffer, so
// `kill -9` loses nothing written). Two kinds of records: "sent" (`{index, idempotency_key,
// sent_to}`, written before the submit, and again with `job_id` once the answer arrived) and a
// line's result (a BatchResult). `--resume` reads it back; the final results file is assembled
// from it in input order. It is opened without following links: created exclusively under its
// own name, or reopened only after lstat found a regular file, with O_NOFOLLOW.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';

/** Where a record sits in the journal. */
export interface Place {
  offset: number;
  length: number;
}

const { O_APPEND, O_CREAT, O_EXCL, O_RDWR, O_NOFOLLOW } = constants;

/** The journal that goes with a results file. */
export function journalPathFor(resultsPath: string): string {
  return `${resultsPath}.journal`;
}

export class Journal {
  private size: number;

  private constructor(
    private fd: number,
    readonly path: string | undefined,
    /** Whether it was there already: a run that did not end (killed) left it. */
    readonly existed = false,
  ) {
    this.size = fstatSync(fd).size;
  }

  /** Opens the journal at `path`: a fresh one created exclusively, or an existing regular file (never a link). */
  static open(path: string): Journal {
    try {
      return new Journal(openSync(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644), path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotOpen(path, err);
    }
    const info = lstatSync(path);
    if (!info.isFile()) throw new UsageError(`the batch journal ${path} is not a regular file (a link, folder or device): refusing to write to it`, 'remove it, or choose another --results file');
    try {
      const journal = new Journal(openSync(path, O_RDWR | O_APPEND | O_NOFOLLOW), path, true);
      journal.endLine();
      return journal;
    } catch (err) {
      throw cannotOpen(path, err);
    }
  }

  /** A journal no one resumes from (results on stdout): a temp file, removed at once, used through its descriptor. */
  static async anonymous(): Promise<Journal> {
    const dir = await mkdtemp(join(tmpdir(), 'wes-batch-'));
    const path = join(dir, 'journal');
    const journal = new Journal(openSync(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600), undefined);
    await rm(dir, { recursive: true, force: true });
    return journal;
  }

  /** Appends one record (a line of JSON text) and returns where it sits. */
  append(text: string): Place {
    const bytes = Buffer.from(text + '\n', 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written);
    const place = { offset: this.size, length: bytes.length - 1 };
    this.size += bytes.length;
    return place;
  }

  read(place: Place): string {
    const buffer = Buffer.alloc(place.length);
    let done = 0;
    while (done < place.length) {
      const n = readSync(this.fd, buffer, done, place.length - done, place.offset + done);
      if (n === 0) break;
      done += n;
    }
    return buffer.toString('utf8', 0, done);
  }

  /** Every complete record already in the journal, in the order written (a torn last line is skipped). */
  *records(): Generator<{ text: string; place: Place }> {
    yield* readRecords(this.fd, this.size);
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }

  /** Closes and deletes the journal (its results are committed elsewhere). */
  remove(): void {
    this.close();
    if (this.path) unlinkSync(this.path);
  }

  /** A record torn by a crash mid-write must not glue itself to the next one. */
  private endLine(): void {
    if (this.size === 0) return;
    const last = Buffer.alloc(1);
    readSync(this.fd, last, 0, 1, this.size - 1);
    if (last[0] !== 0x0a) {
      writeSync(this.fd, '\n');
      this.size += 1;
    }
  }
}

const CHUNK = 1 << 16;

/** Reads newline-ended records from a descriptor in chunks (constant memory per record). */
export function* readRecords(fd: number, size: number): Generator<{ text: string; place: Place }> {
  const chunk = Buffer.alloc(CHUNK);
  let pending: Buffer[] = [];
  let pendingStart = 0;
  let position = 0;
  while (position < size) {
    const n = readSync(fd, chunk, 0, Math.min(CHUNK, size - position), position);
    if (n === 0) break;
    let from = 0;
    for (let nl = chunk.indexOf(0x0a, 0); nl !== -1 && nl < n; nl = chunk.indexOf(0x0a, from)) {
      const piece = Buffer.concat([...pending, chunk.subarray(from, nl)]);
      const offset = pending.length ? pendingStart : position + from;
      pending = [];
      from = nl + 1;
      if (piece.length > 0) yield { text: piece.toString('utf8'), place: { offset, length: piece.length } };
    }
    if (from < n) {
      if (!pending.length) pendingStart = position + from;
      pending.push(Buffer.from(chunk.subarray(from, n)));
    }
    position += n;
  }
}

/** Reads the records of a file that may not exist (an earlier results file or journal). */
export function* recordsOfFile(path: string): Generator<{ text: string; place: Place }> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw cannotOpen(path, err);
  }
  try {
    yield* readRecords(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

function cannotOpen(path: string, err: unknown): UsageError {
  const e = err as NodeJS.ErrnoException;
  const why = e.code === 'ELOOP' ? 'it is a symbolic link' : e.code === 'EISDIR' ? 'it is a folder' : e.code === 'ENOENT' ? 'its folder does not exist' : (e.code ?? e.message);
  return new UsageError(`cannot use ${path} for the batch results: ${why}`);
}
