// The local job history behind `wes jobs list` and `@last`: a folder per profile and base URL in
// the state folder, holding one JSON file per job (history-records.ts: named by submission time
// and id, each written whole by write-to-temp and rename, so no process ever locks). A job's
// newer status replaces its record; `@N` and id prefixes are answered from the folder's listing
// alone. Bounded: past maxJobs records the oldest are removed down to keepJobs (two processes
// doing that at once remove the same files). A single command fsyncs its record before the
// rename; a batch, which records many, fsyncs at most every SYNC_EVERY_MS and when it ends. An
// older wes's single NDJSON file is imported once (history-import.ts). Records are never read or
// written through a symbolic link, and the folders are checked to be real folders of ours.
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { makeFoldersSync } from '../util/make-folders.js';
import envPaths from 'env-paths';
import { sha256Hex } from '../util/sha256-hex.js';
import { systemClock, type Clock } from '../util/clock.js';
import { findRecord, listRecords, newestFirst, readRecord, recordName, removeRecord, TEMP_PREFIX, writeRecord, type HistoryEntry, type RecordName } from './history-records.js';
import { importOldHistory, oldHistoryFile, readOldHistory } from './history-import.js';

export type { HistoryEntry } from './history-records.js';

export interface HistoryLimits {
  /** Records (jobs) past which the oldest are removed. */
  maxJobs: number;
  /** Jobs kept when they are, newest first. */
  keepJobs: number;
}

const DEFAULT_LIMITS: HistoryLimits = { maxJobs: 2000, keepJobs: 500 };
/** A batch's records reach the disk (fsync) at most this long after they were written. */
export const SYNC_EVERY_MS = 250;
/** A temp file older than this was left by a process killed between its write and its rename. */
const STALE_TEMP_MS = 10 * 60_000;

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

/** A job's record as read: its entry and the name it is kept under. */
export interface Found {
  entry: HistoryEntry;
  name: string;
}

export class JobHistory {
  /** The folder of this history's records. */
  readonly path: string;
  /**
   * The records by id as this object last listed them, with the ones it wrote since: a batch
   * writing thousands lists the folder once (and again after each compaction), not per record.
   */
  private known: Map<string, string> | undefined;
  /** Records in the folder as this object counts them: listed, then counted as it adds. */
  private count = 0;
  /** Records find() read: a status written next goes there without listing the folder. */
  private readonly found = new Map<string, string>();

  constructor(
    private readonly dir: string,
    profile: string,
    baseUrl: string,
    private readonly limits: HistoryLimits = DEFAULT_LIMITS,
    /** What it records: `jobs`, or `model-requests` (queued model runs, keyed by the router URL). */
    kind = 'jobs',
    readonly clock: Clock = systemClock,
  ) {
    const key = sha256Hex(`${profile}\n${baseUrl}`).slice(0, 16);
    this.path = join(dir, 'history', `${kind}-${key}`);
  }

  /** Newest submission first, each job with its last recorded status. */
  entries(): HistoryEntry[] {
    const old = this.importOnce();
    if (old) return old;
    const byId = new Map<string, Found>();
    const records = listRecords(this.path);
    for (const record of records) {
      const entry = readRecord(this.path, record.name);
      if (entry) byId.set(entry.id, merged(byId.get(entry.id), { entry, name: record.name }));
    }
    this.remember(records, new Map([...byId].map(([id, f]) => [id, f.name])));
    return [...byId.values()].sort((a, b) => newestFirst(a.name, b.name)).map((f) => f.entry);
  }

  /**
   * The newest `limit` jobs (of those `keep` accepts), reading only as many records as that takes
   * when nothing is filtered (`jobs list`, `@N`: not the whole history), and how many there are.
   */
  newest(limit: number, keep?: (entry: HistoryEntry) => boolean): { entries: HistoryEntry[]; total: number } {
    if (keep || this.importOnce()) {
      const all = this.entries().filter((e) => !keep || keep(e));
      return { entries: all.slice(0, limit), total: all.length };
    }
    const names = this.names();
    const entries: HistoryEntry[] = [];
    const seen = new Set<string>();
    for (const [, name] of [...names].sort((a, b) => newestFirst(a[1], b[1]))) {
      if (entries.length >= limit) break;
      const entry = readRecord(this.path, name);
      if (!entry || seen.has(entry.id)) continue;
      seen.add(entry.id);
      entries.push(entry);
    }
    return { entries, total: names.size };
  }

  /** How many jobs the history holds (from the listing alone). */
  size(): number {
    const old = this.importOnce();
    return old ? old.length : this.names().size;
  }

  /** A job submitted from here. */
  recordSubmitted(id: string, status: string, source: string, now = new Date(this.clock.now()), links?: Record<string, string>): void {
    const writer = this.writer(0);
    try {
      writer.recordSubmitted(id, status, source, now, links);
    } finally {
      writer.close();
    }
  }

  /** A newer status of a job in the history; jobs submitted elsewhere are not added. */
  recordStatus(id: string, status: string, now = new Date(this.clock.now())): void {
    const line = this.statusLine(id, status, now);
    if (!line) return;
    const writer = this.writer(0);
    try {
      writer.append(line);
    } finally {
      writer.close();
    }
  }

  /** The entry that records a newer status of a job in the history; none for a job not in it, or no news. */
  statusLine(id: string, status: string, now = new Date(this.clock.now())): HistoryEntry | undefined {
    const known = this.find(id)?.entry;
    if (!known || known.status === status) return undefined;
    return { ...known, status, seen_at: now.toISOString() };
  }

  /** The ids in the history that start with `prefix`, from the listing (a long id's record is read). */
  idsStartingWith(prefix: string): string[] {
    const old = this.importOnce();
    if (old) return old.filter((e) => e.id.startsWith(prefix)).map((e) => e.id);
    const ids = new Set<string>();
    for (const record of listRecords(this.path)) {
      const id = record.id ?? readRecord(this.path, record.name)?.id;
      if (id?.startsWith(prefix)) ids.add(id);
    }
    return [...ids];
  }

  /** A writer for many records in a row (a batch): fsynced when `syncEveryMs` has passed since the last fsync (0: every record) and on close. */
  writer(syncEveryMs = SYNC_EVERY_MS): HistoryWriter {
    this.ensureDir();
    return new HistoryWriter(this, syncEveryMs);
  }

  /** The record of job `id` (its entry, and the name it is kept under). */
  find(id: string): Found | undefined {
    const old = this.importOnce();
    if (old) {
      const entry = old.find((e) => e.id === id);
      return entry && { entry, name: recordName(entry.id, entry.submitted_at) };
    }
    let name = this.known?.get(id);
    // Listed already (a batch): a job not in the listing is one this object has not written.
    if (this.known && name === undefined) return undefined;
    let entry = name === undefined ? undefined : this.read(name, id);
    if (!entry) {
      name = findRecord(this.path, id);
      entry = name === undefined ? undefined : this.read(name, id);
    }
    if (!entry || name === undefined) return undefined;
    this.found.set(id, name);
    return { entry, name };
  }

  /** Record `name` when it is job `id`'s. */
  private read(name: string, id: string): HistoryEntry | undefined {
    const entry = readRecord(this.path, name);
    return entry?.id === id ? entry : undefined;
  }

  /**
   * @internal Where job `entry.id`'s record goes: the name it is known under, else a new one
   * (counted; true in `grown` when the history has passed maxJobs).
   */
  place(entry: HistoryEntry): { name: string; grown: boolean } {
    const found = this.found.get(entry.id);
    if (found !== undefined) return { name: found, grown: false };
    const names = this.names();
    const known = names.get(entry.id);
    if (known !== undefined) return { name: known, grown: false };
    const name = recordName(entry.id, entry.submitted_at);
    names.set(entry.id, name);
    this.count++;
    return { name, grown: this.count > this.limits.maxJobs };
  }

  /** @internal Removes the oldest records down to keepJobs, and temp files left by killed processes. */
  compact(): void {
    const records = listRecords(this.path);
    for (const record of records.slice(this.limits.keepJobs)) removeRecord(this.path, record.name);
    this.known = undefined;
    this.found.clear();
    this.sweepTemps();
  }

  private sweepTemps(): void {
    for (const name of readdirSync(this.path)) {
      if (!name.startsWith(TEMP_PREFIX)) continue;
      try {
        if (this.clock.now() - statSync(join(this.path, name)).mtimeMs > STALE_TEMP_MS) removeRecord(this.path, name);
      } catch {
        // gone meanwhile
      }
    }
  }

  /** The records by id, listed once per object and kept up to date with its own writes. */
  private names(): Map<string, string> {
    if (this.known) return this.known;
    const records = listRecords(this.path);
    const byId = new Map<string, string>();
    // Newest first: a job recorded twice (see merged) is known by its first record's name.
    for (const record of records) {
      const id = record.id ?? readRecord(this.path, record.name)?.id;
      if (id !== undefined) byId.set(id, record.name);
    }
    return this.remember(records, byId);
  }

  private remember(records: RecordName[], byId: Map<string, string>): Map<string, string> {
    this.count = records.length;
    return (this.known = byId);
  }

  /**
   * The older single-file history when it is still there and its import cannot be made (a
   * read-only state folder): its entries, read as they are. Otherwise imports it (once) and
   * answers undefined: the records are what to read.
   */
  private importOnce(): HistoryEntry[] | undefined {
    if (this.known !== undefined || existsFolder(this.path)) return undefined;
    const old = oldHistoryFile(this.path);
    if (!existsFile(old)) return undefined;
    try {
      this.ensureDir();
      return undefined;
    } catch {
      return readOldHistory(old)?.sort((a, b) => newestFirst(a.submitted_at, b.submitted_at));
    }
  }

  private ensureDir(): void {
    const folder = join(this.dir, 'history');
    makeFoldersSync(folder, 0o700);
    checkOurFolder(this.dir, false);
    checkOurFolder(folder, true);
    if (!existsFolder(this.path) && existsFile(oldHistoryFile(this.path))) importOldHistory(this.path);
    try {
      mkdirSync(this.path, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    checkOurFolder(this.path, true);
  }
}

/** A real folder (not a link to one), and where `owned`, this user's: the history is written nowhere else. */
function checkOurFolder(d: string, owned: boolean): void {
  const st = lstatSync(d);
  if (!st.isDirectory()) throw new Error(`${d} is not a folder (a symbolic link?); the job history is not written there`);
  if (owned && typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${d} belongs to another user; the job history is not written there`);
}

/** Writes records of one history (see the top of this file). */
export class HistoryWriter {
  private lastSync: number;
  /** Records renamed into place since the last fsync (a job's several statuses in a row: its one record, flushed once). */
  private unsynced = new Set<string>();

  constructor(
    private readonly history: JobHistory,
    private readonly syncEveryMs: number,
  ) {
    this.lastSync = history.clock.now();
  }

  recordSubmitted(id: string, status: string, source: string, now = new Date(this.history.clock.now()), links?: Record<string, string>): void {
    const at = now.toISOString();
    const known = this.history.find(id)?.entry;
    const entry: HistoryEntry = { id, status, submitted_at: at, seen_at: at, source, ...(links ? { links } : {}) };
    // Submitted again (the same idempotency key): the first submission time stays.
    this.append(known ? { ...known, ...entry, submitted_at: known.submitted_at } : entry);
  }

  /** Writes `entry` as its job's record, whole. */
  append(entry: HistoryEntry): void {
    const { name, grown } = this.history.place(entry);
    let record = entry;
    if (name !== recordName(entry.id, entry.submitted_at)) {
      // The job's record has another submission time: the first one stays.
      const first = readRecord(this.history.path, name);
      if (first) record = { ...entry, submitted_at: first.submitted_at };
    }
    const durable = this.syncEveryMs === 0;
    const path = writeRecord(this.history.path, name, record, durable);
    if (durable) syncFolder(this.history.path);
    else this.unsynced.add(path);
    if (this.history.clock.now() - this.lastSync >= this.syncEveryMs) this.sync();
    if (grown) this.history.compact();
  }

  close(): void {
    this.sync();
  }

  private sync(): void {
    this.lastSync = this.history.clock.now();
    if (this.unsynced.size === 0) return;
    const paths = [...this.unsynced];
    this.unsynced.clear();
    for (const path of paths) syncFile(path);
    syncFolder(this.history.path);
  }
}

/**
 * Flushes a record written without fsync (one gone since, compacted, has nothing to flush), or a
 * folder, making its renames durable. Best effort where the platform cannot: Windows opens no
 * folder this way, nor flushes a descriptor opened to read.
 */
function flush(path: string, flags = constants.O_RDONLY | constants.O_NOFOLLOW): void {
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // see above
  } finally {
    closeSync(fd);
  }
}

const syncFile = (path: string) => flush(path);
const syncFolder = (folder: string) => flush(folder, constants.O_RDONLY);

function existsFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function existsFile(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Two records of one job (two processes recorded its submission at once): the first submission, the latest status. */
function merged(earlier: Found | undefined, found: Found): Found {
  if (!earlier) return found;
  const [first, later] = earlier.name <= found.name ? [earlier, found] : [found, earlier];
  const latest = later.entry.seen_at > first.entry.seen_at ? later.entry : first.entry;
  return { name: first.name, entry: { ...latest, submitted_at: first.entry.submitted_at } };
}
