// The local job history behind `wes jobs list` and `@last`: one NDJSON file per profile and base
// URL in the state folder. Every change is one appended line (one write(2) on an O_APPEND
// descriptor, so a killed process loses nothing written and two processes' lines never mix), and a
// torn last line is skipped when read. A single command fsyncs its line; a batch, which records a
// line per job, keeps one descriptor open and fsyncs at most every SYNC_EVERY_MS and when it ends.
// The line count is read once per process and then counted, not re-read on every append. When it
// passes maxLines the file is rewritten with the newest keepJobs jobs (exclusive temp file,
// fsynced, renamed over it) by one process at a time, holding a lock file from before its read
// until after the rename. A writer that finds the lock after its write waits for the rewrite to
// end (however long a loaded machine makes it, until the lock is stale), and writes its line again
// if the file it wrote to was replaced: the line may have reached the old file after the rewriter
// read it (a repeated line changes nothing: the history folds by id, and the writer's own later
// lines come after it). "Replaced" is asked of the open descriptor (no links left), not only of
// the inode number at the path: a file system may hand the old number to a later rewrite's file.
// Files are opened with O_NOFOLLOW and the folder is checked to be a real folder of ours, so a
// planted symbolic link is never written through.
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { replaceFileSync } from './replace-file.js';
import { sha256Hex } from '../util/sha256-hex.js';

export interface HistoryEntry {
  id: string;
  status: string;
  /** When this machine submitted it (ISO 8601). */
  submitted_at: string;
  /** When the status was last seen (ISO 8601). */
  seen_at: string;
  /** What was submitted: the workflow file, `-`, or `batch FILE:LINE`. */
  source: string;
  /** The URLs the server gave for it when it was submitted, by name (a queued model request's status_url, ...). */
  links?: Record<string, string>;
}

export interface HistoryLimits {
  /** Lines past which the file is rewritten. */
  maxLines: number;
  /** Jobs kept by a rewrite, newest first. */
  keepJobs: number;
}

const DEFAULT_LIMITS: HistoryLimits = { maxLines: 2000, keepJobs: 500 };
/** A batch's history lines reach the disk (fsync) at most this long after they were written. */
export const SYNC_EVERY_MS = 250;
/** A rewrite's lock older than this was left by a process that died mid-rewrite. */
const STALE_LOCK_MS = 10_000;
const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_RDWR, O_WRONLY } = constants;

/**
 * The state folder: WES_STATE_DIR; else `state/` inside WES_CONFIG_DIR when that is set (one
 * variable relocates everything wes keeps); else $XDG_STATE_HOME/wes (~/.local/state/wes), or the
 * per-user data folder where XDG does not apply.
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.WES_STATE_DIR) return env.WES_STATE_DIR;
  if (env.WES_CONFIG_DIR) return join(env.WES_CONFIG_DIR, 'state');
  if (process.platform === 'darwin' || process.platform === 'win32') return envPaths('wes', { suffix: '' }).data;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'wes');
}

/** Latest submission first. */
function newestFirst(a: HistoryEntry, b: HistoryEntry): number {
  return a.submitted_at < b.submitted_at ? 1 : a.submitted_at > b.submitted_at ? -1 : 0;
}

export class JobHistory {
  readonly path: string;
  /** Lines in the file as this process knows them: read once, then counted as it appends. */
  private lines: number | undefined;

  constructor(
    private readonly dir: string,
    profile: string,
    baseUrl: string,
    private readonly limits: HistoryLimits = DEFAULT_LIMITS,
    /** What the file records: `jobs`, or `model-requests` (queued model runs, keyed by the router URL). */
    kind = 'jobs',
  ) {
    const key = sha256Hex(`${profile}\n${baseUrl}`).slice(0, 16);
    this.path = join(dir, 'history', `${kind}-${key}.ndjson`);
  }

  /** Newest submission first, each job with its last recorded status. */
  entries(): HistoryEntry[] {
    return [...this.fold().values()].sort(newestFirst);
  }

  /** A job submitted from here. */
  recordSubmitted(id: string, status: string, source: string, now = new Date(), links?: Record<string, string>): void {
    const writer = this.writer(0);
    try {
      writer.recordSubmitted(id, status, source, now, links);
    } finally {
      writer.close();
    }
  }

  /** A newer status of a job in the history; jobs submitted elsewhere are not added. */
  recordStatus(id: string, status: string, now = new Date()): void {
    const line = this.statusLine(id, status, now);
    if (!line) return;
    const writer = this.writer(0);
    try {
      writer.append(line);
    } finally {
      writer.close();
    }
  }

  /** The line that records a newer status of a job in the history; none for a job not in it, or no news. */
  statusLine(id: string, status: string, now = new Date()): HistoryEntry | undefined {
    const known = this.entryOf(id);
    if (!known || known.status === status) return undefined;
    return { ...known, status, seen_at: now.toISOString() };
  }

  /**
   * The ids in the history that start with `prefix`, parsing only the lines that can hold one
   * (as entryOf does): a line written by JSON.stringify holds `"id":"` and the id as JSON writes it.
   */
  idsStartingWith(prefix: string): string[] {
    const text = this.readText();
    const written = `"id":${JSON.stringify(prefix).slice(0, -1)}`;
    const ids = new Set<string>();
    for (const line of text.includes('\\') || prefix === '' ? splitLines(text) : linesWith(text, written)) {
      const entry = parseEntry(line);
      if (entry?.id.startsWith(prefix)) ids.add(entry.id);
    }
    return [...ids];
  }

  /**
   * A writer for many lines in a row (a batch): one descriptor, each line written at once, fsynced
   * when `syncEveryMs` has passed since the last fsync (0: every line) and on close.
   */
  writer(syncEveryMs = SYNC_EVERY_MS): HistoryWriter {
    this.ensureDir();
    return new HistoryWriter(this, syncEveryMs);
  }

  /** @internal Counts a line this process appended; true when the file should be rewritten now. */
  counted(): boolean {
    this.lines = (this.lines ?? this.readLines().length - 1) + 1;
    return this.lines > this.limits.maxLines;
  }

  private fold(): Map<string, HistoryEntry> {
    const byId = new Map<string, HistoryEntry>();
    for (const line of this.readLines()) {
      const entry = parseEntry(line);
      if (entry) byId.set(entry.id, merged(byId.get(entry.id), entry));
    }
    return byId;
  }

  /**
   * One job's entry, as fold() would give it, parsing only the lines that can be the job's:
   * `jobs get` in a loop reads a history of up to maxLines lines, and parsing all of them cost it
   * ~15 % of its start-up (2 000 lines: 253 -> 295 M instructions). In a file without a backslash
   * (JSON's only escape), the job's lines hold its id as it is; in one with, every line is parsed.
   */
  private entryOf(id: string): HistoryEntry | undefined {
    const text = this.readText();
    let known: HistoryEntry | undefined;
    for (const line of text.includes('\\') || id === '' ? splitLines(text) : linesWith(text, id)) {
      const entry = parseEntry(line);
      if (entry?.id === id) known = merged(known, entry);
    }
    return known;
  }

  private readLines(): string[] {
    return splitLines(this.readText());
  }

  private readText(): string {
    try {
      const fd = openSync(this.path, O_RDONLY | O_NOFOLLOW);
      try {
        return readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw err;
    }
  }

  /**
   * @internal Keeps the newest keepJobs jobs, one line each; the old file stays whole until the
   * rename. One process at a time: while another holds the lock, this one goes on appending.
   */
  compact(): void {
    const lock = `${this.path}.lock`;
    if (!takeLock(lock)) {
      this.lines = 0; // the other process is rewriting it; count afresh from here
      return;
    }
    try {
      const kept = this.entries().slice(0, this.limits.keepJobs).reverse();
      replaceFileSync(this.path, kept.map((e) => JSON.stringify(e) + '\n').join(''));
      this.lines = kept.length;
    } finally {
      unlinkSync(lock);
    }
  }

  private ensureDir(): void {
    const folder = join(this.dir, 'history');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const d of [this.dir, folder]) {
      const st = lstatSync(d);
      if (!st.isDirectory()) throw new Error(`${d} is not a folder (a symbolic link?); the job history is not written there`);
    }
    const st = lstatSync(folder);
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${folder} belongs to another user; the job history is not written there`);
  }
}

/** Appends lines to one history file (see the top of this file). */
export class HistoryWriter {
  private fd = -1;
  private inode = 0;
  private lastSync = Date.now();
  private unsynced = false;

  constructor(
    private readonly history: JobHistory,
    private readonly syncEveryMs: number,
  ) {
    this.open();
  }

  recordSubmitted(id: string, status: string, source: string, now = new Date(), links?: Record<string, string>): void {
    const at = now.toISOString();
    this.append({ id, status, submitted_at: at, seen_at: at, source, ...(links ? { links } : {}) });
  }

  append(entry: HistoryEntry): void {
    const line = JSON.stringify(entry) + '\n';
    writeSync(this.fd, line);
    // Another process rewriting the file may have read it before this line arrived: once its
    // rewrite is over, a replaced file gets the line again (and the same holds for that write).
    // Bounded only against a file system that never answers "not replaced": each round needs
    // another process's whole rewrite.
    for (let round = 0; round < 100; round++) {
      waitForUnlock(`${this.history.path}.lock`);
      if (!this.replaced()) break;
      this.reopen();
      writeSync(this.fd, line);
    }
    this.unsynced = true;
    if (Date.now() - this.lastSync >= this.syncEveryMs) this.sync();
    if (this.history.counted()) {
      this.sync();
      this.history.compact();
      this.reopen();
    }
  }

  close(): void {
    if (this.fd < 0) return;
    try {
      this.sync();
    } finally {
      closeSync(this.fd);
      this.fd = -1;
    }
  }

  private sync(): void {
    if (!this.unsynced) return;
    fsyncSync(this.fd);
    this.unsynced = false;
    this.lastSync = Date.now();
  }

  private open(): void {
    const fd = openSync(this.history.path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
    try {
      const info = fstatSync(fd);
      // After a torn line (a crash mid-write) start a new line, so the next one is not lost with it.
      const last = Buffer.alloc(1);
      if (info.size > 0 && readSync(fd, last, 0, 1, info.size - 1) === 1 && last[0] !== 0x0a) writeSync(fd, '\n');
      this.inode = info.ino;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.fd = fd;
  }

  private reopen(): void {
    this.close();
    this.open();
  }

  private replaced(): boolean {
    if (fstatSync(this.fd).nlink === 0) return true; // renamed over (or removed) since it was opened
    try {
      return lstatSync(this.history.path).ino !== this.inode;
    } catch {
      return true;
    }
  }
}

function splitLines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** The lines of `text` that contain `part`, in order, as splitLines has them. */
function linesWith(text: string, part: string): string[] {
  if (part === '') throw new Error('linesWith: an empty part is in every line');
  const lines: string[] = [];
  for (let at = text.indexOf(part); at !== -1; ) {
    const start = text.lastIndexOf('\n', at) + 1;
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    lines.push(text.slice(start, end));
    at = text.indexOf(part, end);
  }
  return lines;
}

/** Made on first wait: the single executable's start-up snapshot is built where SharedArrayBuffer is not defined. */
let pause: Int32Array | undefined;

/**
 * Waits (blocking: a rewrite takes milliseconds, seconds on a loaded disk) while another process
 * holds the rewrite lock. Giving up earlier would lose the line when the rewrite ends later; a lock
 * left by a process that died mid-rewrite is stale after STALE_LOCK_MS and no longer waited for.
 */
function waitForUnlock(lock: string): void {
  // Also bounded by this process's own count, for a lock whose time stamp is in the future.
  for (const deadline = Date.now() + STALE_LOCK_MS; Date.now() < deadline; ) {
    try {
      if (Date.now() - lstatSync(lock).mtimeMs >= STALE_LOCK_MS) return;
    } catch {
      return;
    }
    Atomics.wait((pause ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, 2);
  }
}

/** Creates the lock exclusively; a lock left by a process that died mid-rewrite is taken over. */
function takeLock(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    try {
      if (Date.now() - statSync(path).mtimeMs < STALE_LOCK_MS) return false;
      unlinkSync(path);
    } catch {
      // gone meanwhile: try again
    }
  }
  return false;
}

/** A job's later line over its earlier ones; the first submission time stays. */
function merged(earlier: HistoryEntry | undefined, entry: HistoryEntry): HistoryEntry {
  return { ...earlier, ...entry, submitted_at: earlier?.submitted_at ?? entry.submitted_at };
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const pairs = Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string');
  return pairs.length > 0 ? Object.fromEntries(pairs) : undefined;
}

function parseEntry(line: string): HistoryEntry | undefined {
  try {
    const v = JSON.parse(line) as Partial<HistoryEntry>;
    if (typeof v.id !== 'string' || typeof v.status !== 'string' || typeof v.submitted_at !== 'string') return undefined;
    const entry: HistoryEntry = { id: v.id, status: v.status, submitted_at: v.submitted_at, seen_at: typeof v.seen_at === 'string' ? v.seen_at : v.submitted_at, source: typeof v.source === 'string' ? v.source : '' };
    const links = stringMap(v.links);
    return links ? { ...entry, links } : entry;
  } catch {
    return undefined;
  }
}
