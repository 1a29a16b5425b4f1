// The job history's records: one small JSON file per job in the history's folder, named by the
// job's submission time and id, so that the newest come first in name order and a job is found by
// its id from the listing alone. A record is written whole or not at all: to an exclusively
// created temp file, then renamed over the record (rename(2) is atomic), so two processes never
// need a lock: the last rename wins and every record read is whole. Names starting with `.` are
// temp files; the listing ignores them.
import { closeSync, constants, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomHex } from '../util/random-hex.js';
import { replaceFileSync } from './replace-file.js';
import { sha256Hex } from '../util/sha256-hex.js';

const { O_NOFOLLOW, O_RDONLY } = constants;

/** Digits of the submission time (milliseconds) in a name: fixed width, so name order is time order. */
const TIME_DIGITS = 15;
/** An encoded id longer than this is named by its hash (names stay under eCryptfs's 143 bytes). */
const MAX_NAMED_ID = 120;
const SUFFIX = '.json';
/** Prefix of a temp file (a rename not yet made, or left by a process killed before it). */
export const TEMP_PREFIX = '.tmp-';

/** One job of the history, as a record holds it. */
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

/** A record's name as the listing has it: the time, and the id (or, for a long id, only its hash). */
export interface RecordName {
  name: string;
  /** The id, when the name holds it; undefined for a long id named by its hash (read the record). */
  id: string | undefined;
}

/**
 * Characters kept as they are in a name; every other byte is `%XX`. Capitals are encoded too, so
 * ids that differ only in case get different names on a case-insensitive file system.
 */
const KEPT = /[a-z0-9._-]/;

function encodeId(id: string): string {
  let out = '';
  for (const ch of id) out += KEPT.test(ch) ? ch : [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return out;
}

function timeOf(submittedAt: string): string {
  const ms = Date.parse(submittedAt);
  return String(Number.isFinite(ms) && ms > 0 ? Math.min(ms, 10 ** TIME_DIGITS - 1) : 0).padStart(TIME_DIGITS, '0');
}

/** What follows the time in the name of job `id`'s record. */
function idPart(id: string): string {
  const encoded = encodeId(id);
  return `-${encoded.length <= MAX_NAMED_ID ? encoded : `~${sha256Hex(id).slice(0, 32)}`}${SUFFIX}`;
}

/** The name of a job's record. */
export function recordName(id: string, submittedAt: string): string {
  return timeOf(submittedAt) + idPart(id);
}

/**
 * The name of job `id`'s record in `folder` (its first, should two processes have recorded it at
 * once), matched on the end of each name: `jobs get` asks this of a history of thousands, and
 * decoding every name cost more than the rest of the lookup.
 */
export function findRecord(folder: string, id: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const end = idPart(id);
  let first: string | undefined;
  for (const name of names) {
    if (name.length === TIME_DIGITS + end.length && name.endsWith(end) && (first === undefined || name < first) && parseName(name)) first = name;
  }
  return first;
}

let tempStem: string | undefined;
let tempCount = 0;

/** A listed name as a record's; undefined for temp files and anything else in the folder. */
export function parseName(name: string): RecordName | undefined {
  if (!name.endsWith(SUFFIX) || name.charCodeAt(TIME_DIGITS) !== 0x2d || !/^\d+$/.test(name.slice(0, TIME_DIGITS))) return undefined;
  const idPart = name.slice(TIME_DIGITS + 1, -SUFFIX.length);
  if (idPart.startsWith('~')) return { name, id: undefined };
  try {
    return { name, id: decodeURIComponent(idPart) };
  } catch {
    return undefined;
  }
}

/** Sorts record names (or submission times) newest first: both begin with the time, so text order is time order. */
export function newestFirst(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/** The records in `folder`, newest first (none when there is no folder). */
export function listRecords(folder: string): RecordName[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const records: RecordName[] = [];
  for (const name of names) {
    const parsed = parseName(name);
    if (parsed) records.push(parsed);
  }
  return records.sort((a, b) => newestFirst(a.name, b.name));
}

/** A record's entry; undefined when it is gone, unreadable, or not a history entry. Never follows a link. */
export function readRecord(folder: string, name: string): HistoryEntry | undefined {
  let text: string;
  try {
    const fd = openSync(join(folder, name), O_RDONLY | O_NOFOLLOW);
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'EISDIR') return undefined;
    throw err;
  }
  return parseEntry(text);
}

/**
 * Writes a record whole: temp file, (fsync when `durable`), rename over the record. Returns the
 * record's path (a caller that did not fsync syncs it later).
 */
export function writeRecord(folder: string, name: string, entry: HistoryEntry, durable: boolean): string {
  // Random once per process (a batch writes thousands), counted after; O_EXCL refuses any clash.
  const temp = join(folder, `${TEMP_PREFIX}${(tempStem ??= `${process.pid}-${randomHex(4)}`)}-${++tempCount}`);
  const path = join(folder, name);
  replaceFileSync(path, JSON.stringify(entry) + '\n', { temp, durable });
  return path;
}

/** Removes a record or temp file; one already gone (another process compacting too) is fine. */
export function removeRecord(folder: string, name: string): void {
  try {
    unlinkSync(join(folder, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const pairs = Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string');
  return pairs.length > 0 ? Object.fromEntries(pairs) : undefined;
}

/** A history entry from JSON text (a record, or a line of the older single-file history); undefined when it is not one. */
export function parseEntry(text: string): HistoryEntry | undefined {
  try {
    const v = JSON.parse(text) as Partial<HistoryEntry>;
    if (typeof v.id !== 'string' || typeof v.status !== 'string' || typeof v.submitted_at !== 'string') return undefined;
    const entry: HistoryEntry = { id: v.id, status: v.status, submitted_at: v.submitted_at, seen_at: typeof v.seen_at === 'string' ? v.seen_at : v.submitted_at, source: typeof v.source === 'string' ? v.source : '' };
    const links = stringMap(v.links);
    return links ? { ...entry, links } : entry;
  } catch {
    return undefined;
  }
}
