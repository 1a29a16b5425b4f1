// The history of wes before the one-file-per-record store: one NDJSON file per history
// (`history/jobs-<key>.ndjson`), a line per change, the later line of a job over the earlier
// ones (its first submission time kept), torn lines skipped. Imported once into the record folder
// (records written into a temp folder that is renamed into place, so a second process either
// sees the whole import or none and imports nothing twice); the old file is then renamed to
// `.ndjson.imported` and never read again.
import { closeSync, constants, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomHex } from '../util/random-hex.js';
import { parseEntry, recordName, writeRecord, type HistoryEntry } from './history-records.js';

/** The older single file of the history kept in `folder`. */
export function oldHistoryFile(folder: string): string {
  return `${folder}.ndjson`;
}

/** A job's later line over its earlier ones; the first submission time stays. */
function merged(earlier: HistoryEntry | undefined, entry: HistoryEntry): HistoryEntry {
  return { ...earlier, ...entry, submitted_at: earlier?.submitted_at ?? entry.submitted_at };
}

/** The jobs of an older history file, folded by id; undefined when there is no such file. */
export function readOldHistory(path: string): HistoryEntry[] | undefined {
  let text: string;
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const byId = new Map<string, HistoryEntry>();
  for (const line of text.split('\n')) {
    const entry = line.trim() === '' ? undefined : parseEntry(line);
    if (entry) byId.set(entry.id, merged(byId.get(entry.id), entry));
  }
  return [...byId.values()];
}

/**
 * Imports the older file beside `folder` when there is one and the folder is not there yet.
 * Returns the entries imported (undefined: nothing to import). The folder's parent exists.
 */
export function importOldHistory(folder: string): HistoryEntry[] | undefined {
  const old = oldHistoryFile(folder);
  const entries = readOldHistory(old);
  if (!entries) return undefined;
  const temp = join(dirname(folder), `.import-${basename(folder)}-${randomHex(6)}`);
  mkdirSync(temp, { mode: 0o700 });
  try {
    for (const entry of entries) writeRecord(temp, recordName(entry.id, entry.submitted_at), entry, false);
    renameSync(temp, folder);
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    // Another process imported it (or wrote the first record) first: its folder stands.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') throw err;
    return undefined;
  }
  try {
    renameSync(old, `${old}.imported`);
  } catch {
    // already renamed by another process; the folder is what counts
  }
  return entries;
}
