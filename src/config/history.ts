// The local job history behind `wes jobs list` and `@last`: one NDJSON file per profile and base
// URL in the state folder. Every change is one appended line (O_APPEND, then fsync), so a crash
// loses at most the line being written, and a torn last line is skipped when read. When the file
// grows past MAX_LINES it is rewritten with the newest KEEP_JOBS jobs: into an exclusively created
// temp file, fsynced, then renamed over it. Files are opened with O_NOFOLLOW and the folder is
// checked to be a real folder of ours, so a planted symbolic link is never written through.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { replaceFileSync } from '../files/replace-file.js';

export interface HistoryEntry {
  id: string;
  status: string;
  /** When this machine submitted it (ISO 8601). */
  submitted_at: string;
  /** When the status was last seen (ISO 8601). */
  seen_at: string;
  /** What was submitted: the workflow file, `-`, or `batch FILE:LINE`. */
  source: string;
}

const MAX_LINES = 2000;
const KEEP_JOBS = 500;

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

export class JobHistory {
  readonly path: string;

  constructor(
    private readonly dir: string,
    profile: string,
    baseUrl: string,
  ) {
    const key = createHash('sha256').update(`${profile}\n${baseUrl}`).digest('hex').slice(0, 16);
    this.path = join(dir, 'history', `jobs-${key}.ndjson`);
  }

  /** Newest submission first, each job with its last recorded status. */
  entries(): HistoryEntry[] {
    return [...this.fold().values()].sort((a, b) => (a.submitted_at < b.submitted_at ? 1 : a.submitted_at > b.submitted_at ? -1 : 0));
  }

  /** A job submitted from here. */
  recordSubmitted(id: string, status: string, source: string, now = new Date()): void {
    const at = now.toISOString();
    this.append({ id, status, submitted_at: at, seen_at: at, source });
  }

  /** A newer status of a job in the history; jobs submitted elsewhere are not added. */
  recordStatus(id: string, status: string, now = new Date()): void {
    const known = this.fold().get(id);
    if (!known || known.status === status) return;
    this.append({ ...known, status, seen_at: now.toISOString() });
  }

  private fold(): Map<string, HistoryEntry> {
    const byId = new Map<string, HistoryEntry>();
    for (const line of this.readLines()) {
      const entry = parseEntry(line);
      if (entry) byId.set(entry.id, { ...byId.get(entry.id), ...entry, submitted_at: byId.get(entry.id)?.submitted_at ?? entry.submitted_at });
    }
    return byId;
  }

  private readLines(): string[] {
    let text: string;
    try {
      const fd = openSync(this.path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        text = readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return text.split('\n').filter((l) => l.trim() !== '');
  }

  private append(entry: HistoryEntry): void {
    this.ensureDir();
    const fd = openSync(this.path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      // After a torn line (a crash mid-write) start a new line, so this one is not lost with it.
      const size = fstatSync(fd).size;
      const last = Buffer.alloc(1);
      const torn = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
      writeSync(fd, (torn ? '\n' : '') + JSON.stringify(entry) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (this.readLines().length > MAX_LINES) this.compact();
  }

  /** Keeps the newest KEEP_JOBS jobs, one line each; the old file stays whole until the rename. */
  private compact(): void {
    const kept = this.entries().slice(0, KEEP_JOBS).reverse();
    replaceFileSync(this.path, kept.map((e) => JSON.stringify(e) + '\n').join(''));
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

function parseEntry(line: string): HistoryEntry | undefined {
  try {
    const v = JSON.parse(line) as Partial<HistoryEntry>;
    if (typeof v.id !== 'string' || typeof v.status !== 'string' || typeof v.submitted_at !== 'string') return undefined;
    return { id: v.id, status: v.status, submitted_at: v.submitted_at, seen_at: typeof v.seen_at === 'string' ? v.seen_at : v.submitted_at, source: typeof v.source === 'string' ? v.source : '' };
  } catch {
    return undefined;
  }
}
