// The results of a batch: one NDJSON line per input line, in input order, whatever order the jobs
// finish in; to stdout as they become printable, or to a results file assembled from the journal
// when the run ends (normally, by Ctrl-C or by --timeout). After a crash the journal is still
// there: --resume reads the results file and its journal to learn which lines already succeeded,
// which jobs were made (followed, never made again), which sends got no answer (looked for by
// key), and which lines the server made nothing of (sent again under a new key).
import { createWriteStream, existsSync, openSync, readSync } from 'node:fs';
import { lstat, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { UsageError } from '../../errors.js';
import { toSafeJson } from '../../util/safe-json.js';
import { NOT_SUBMITTED, REFUSED, type BatchResult } from './runner.js';
import { journalPathFor, recordsOfFile, type Journal, type Place } from './journal.js';

/** What an earlier run left for a line: its latest result and its latest send, whichever came last. */
export interface Previous {
  /** The line's latest result record. */
  result?: {
    status: string;
    error: { code: string; exit_code: number } | null;
    job_id: string | null;
    idempotency_key: string;
    /** Where its job is (or may be). */
    endpoint?: string;
    /** Which line of which batch it was (absent in results of wes before single-use keys). */
    line_id?: string;
    /** The record's text, for a line that needs no new run. */
    text: () => string;
  };
  /** The line's latest send: the key, where and when it went, and the job its answer named. */
  sent?: SentRecord;
  /** Whether the send is newer than the result (a later attempt the result does not cover). */
  sentIsNewer: boolean;
}

/** What a line does in this run, from what earlier runs left. */
export type LinePlan =
  /** Its result stands: carried into this run's results. */
  | { kind: 'carry'; text: () => string }
  /** Its job was made and named: followed by reading it, never submitted again. */
  | { kind: 'follow'; jobId: string; key: string; endpoint: string }
  /** A submit went out and no answer named a job: the job is looked for by its key. */
  | { kind: 'find'; key: string; endpoint: string; sentAt?: number }
  /** Nothing of it was made (never sent, or refused): submitted under a new key. */
  | { kind: 'send' };

/** Statuses that mean a line was sent but no result came back (a crash, or a kill). */
export const SENT = 'sent';

function isResult(value: unknown): value is BatchResult {
  const r = value as Partial<BatchResult> | null;
  return typeof r === 'object' && r !== null && Number.isInteger(r.index) && typeof r.status === 'string' && typeof r.idempotency_key === 'string';
}

export interface SentRecord {
  index: number;
  idempotency_key: string;
  sent_to: string;
  /** When the key was sent (ms since the epoch): a job list reaching back before it proves a key made no job. */
  sent_at?: number;
  job_id?: string;
  line_id?: string;
}

function isSent(value: unknown): value is SentRecord {
  const r = value as Partial<SentRecord> | null;
  return typeof r === 'object' && r !== null && Number.isInteger(r.index) && typeof r.idempotency_key === 'string' && typeof r.sent_to === 'string';
}

export function sentRecord(record: Omit<SentRecord, 'sent_at'> & { sent_at?: number }): string {
  return toSafeJson(record);
}

/** Folds one record into what is known of its line (the later record of each kind wins). */
function fold(previous: Map<number, Previous>, value: unknown, text: () => string): boolean {
  if (isResult(value)) {
    const known = previous.get(value.index);
    const endpoint = typeof value.endpoint === 'string' ? value.endpoint : undefined;
    const error = value.error ? { code: value.error.code, exit_code: value.error.exit_code } : null;
    const lineId = typeof value.line_id === 'string' ? value.line_id : undefined;
    previous.set(value.index, {
      result: { status: value.status, error, job_id: value.job_id ?? null, idempotency_key: value.idempotency_key, endpoint, line_id: lineId, text },
      sent: known?.sent,
      sentIsNewer: false,
    });
    return true;
  }
  if (isSent(value)) {
    const known = previous.get(value.index);
    // The answer to a send (its job id) keeps the time the key first went out.
    const sentAt = value.sent_at ?? (known?.sent?.idempotency_key === value.idempotency_key ? known.sent.sent_at : undefined);
    previous.set(value.index, { result: known?.result, sent: { ...value, ...(sentAt !== undefined ? { sent_at: sentAt } : {}) }, sentIsNewer: true });
    return true;
  }
  return false;
}

/** Whether a key was derived from this line's identity (results of wes before single-use keys: `ID` or `ID.N`). */
function derivedFrom(key: string, lineId: string): boolean {
  return key === lineId || (key.startsWith(`${lineId}.`) && /^\d+$/.test(key.slice(lineId.length + 1)));
}

/** Whether what was left is of this line (same batch, place, text and --set flags), not of another file's. */
function sameLine(previous: Previous, lineId: string): boolean {
  const r = previous.result;
  const s = previous.sent;
  const of = (recordLineId: string | undefined, key: string) => (recordLineId !== undefined ? recordLineId === lineId : derivedFrom(key, lineId));
  return (r === undefined || of(r.line_id, r.idempotency_key)) && (s === undefined || of(s.line_id, s.idempotency_key));
}

/** Job outcomes that are over for good: carried as they are unless --retry-failed asks for a new job. */
const ENDED_FOR_GOOD = new Set(['failed', 'canceled', 'expired']);

/** Line statuses with no job that say the server made none: a refusal, or a line never sent. */
const NO_JOB_MADE = new Set([REFUSED, NOT_SUBMITTED]);

/**
 * What a line does in this run. The journal is the truth: a line whose job was named is followed
 * (read), never submitted again; a line that was sent with no job named is looked for by its key;
 * only a line the server made nothing of is submitted, and then under a new key.
 */
export function planLine(previous: Previous | undefined, lineId: string, options: { retryFailed?: boolean } = {}): LinePlan {
  if (!previous || !sameLine(previous, lineId)) return { kind: 'send' };
  const { result, sent } = previous;
  if (result && !previous.sentIsNewer) {
    if (result.status === 'succeeded' && result.error === null) return { kind: 'carry', text: result.text };
    if (result.job_id !== null) {
      if (ENDED_FOR_GOOD.has(result.status)) return options.retryFailed ? { kind: 'send' } : { kind: 'carry', text: result.text };
      return { kind: 'follow', jobId: result.job_id, key: result.idempotency_key, endpoint: result.endpoint ?? sent?.sent_to ?? '' };
    }
    if (NO_JOB_MADE.has(result.status)) return { kind: 'send' };
    // A result names an endpoint when its submit went out there: its job may exist (the results
    // file carries no send records, so this is what tells it after the journal is gone).
    const sentThere = result.endpoint ?? (sent?.idempotency_key === result.idempotency_key ? sent.sent_to : undefined);
    if (sentThere === undefined) return { kind: 'send' };
    const sentAt = sent?.idempotency_key === result.idempotency_key ? sent.sent_at : undefined;
    return { kind: 'find', key: result.idempotency_key, endpoint: sentThere, ...(sentAt !== undefined ? { sentAt } : {}) };
  }
  if (!sent) return { kind: 'send' };
  if (sent.job_id !== undefined) return { kind: 'follow', jobId: sent.job_id, key: sent.idempotency_key, endpoint: sent.sent_to };
  return { kind: 'find', key: sent.idempotency_key, endpoint: sent.sent_to, ...(sent.sent_at !== undefined ? { sentAt: sent.sent_at } : {}) };
}

/**
 * What earlier runs left, by line: the results file given to --resume (complete lines, strictly
 * checked) and then its journal (newer; a record torn by a crash is skipped). The result texts
 * are not kept: each is read again from its file when it is carried into this run's results.
 */
export function readPrevious(resumePath: string, current?: Journal): Map<number, Previous> {
  const previous = new Map<number, Previous>();
  const journalPath = journalPathFor(resumePath);
  const fromJournal = current?.path === journalPath ? current : undefined;
  let found = false;
  let resultsFd: number | undefined;
  for (const { text, place } of recordsOfFile(resumePath)) {
    found = true;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new UsageError(`${resumePath} holds a line that is not JSON (at byte ${place.offset}): not a results file of wes jobs submit --batch`);
    }
    resultsFd ??= openSync(resumePath, 'r');
    const fd = resultsFd;
    if (!isResult(value)) throw new UsageError(`${resumePath} holds a line that is not a batch result (index, status, idempotency_key), at byte ${place.offset}`);
    fold(previous, value, () => readPlace(fd, place));
  }
  let journalFd: number | undefined;
  const journalRecords = fromJournal ? fromJournal.records() : recordsOfFile(journalPath);
  for (const { text, place } of journalRecords) {
    found = true;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue; // the last record of a run killed mid-write
    }
    if (fromJournal) fold(previous, value, () => fromJournal.read(place));
    else {
      journalFd ??= openSync(journalPath, 'r');
      const fd = journalFd;
      fold(previous, value, () => readPlace(fd, place));
    }
  }
  if (!found && !existsSync(resumePath) && !existsSync(journalPath)) {
    throw new UsageError(`cannot read the results file ${resumePath}: no such file (nor its journal ${journalPath})`);
  }
  return previous;
}

/** Removes a file left by a killed run, but never follows a link or touches anything but a regular file. */
async function removeStale(path: string): Promise<void> {
  const info = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (!info) return;
  if (!info.isFile()) throw new UsageError(`${path} is in the way of the results and is not a regular file: refusing to touch it`, 'remove it, or choose another --results file');
  await rm(path);
}

function readPlace(fd: number, place: Place): string {
  const buffer = Buffer.alloc(place.length);
  const n = readSync(fd, buffer, 0, place.length, place.offset);
  return buffer.toString('utf8', 0, n);
}

/**
 * Where every line's result is, by the line's place among the jobs (two small numbers a line, so a
 * batch of 100 000 needs about a megabyte), and, for results on stdout, the ones waiting for an
 * earlier line: up to `window` of them in memory, the rest read back from the journal.
 */
export class ResultBook {
  private readonly offsets: Float64Array;
  private readonly lengths: Int32Array;
  private readonly held = new Map<number, string>();
  private next = 0;

  constructor(
    private readonly journal: Journal,
    readonly count: number,
    /** Results in input order as they become printable (stdout), or nothing (a results file, assembled at the end). */
    private readonly print?: (line: string) => void,
    private readonly window = 1024,
  ) {
    this.offsets = new Float64Array(count);
    this.lengths = new Int32Array(count).fill(-1);
  }

  /** Records a line's result (already in the journal at `place`). */
  put(ordinal: number, text: string, place: Place): void {
    this.offsets[ordinal] = place.offset;
    this.lengths[ordinal] = place.length;
    if (!this.print) return;
    if (ordinal !== this.next && this.held.size < this.window) this.held.set(ordinal, text);
    while (this.next < this.count && this.lengths[this.next]! >= 0) {
      const ready = this.next === ordinal ? text : (this.held.get(this.next) ?? this.journal.read(this.placeOf(this.next)));
      this.held.delete(this.next);
      this.print(ready + '\n');
      this.next++;
    }
  }

  has(ordinal: number): boolean {
    return this.lengths[ordinal]! >= 0;
  }

  private placeOf(ordinal: number): Place {
    return { offset: this.offsets[ordinal]!, length: this.lengths[ordinal]! };
  }

  /** Writes every line's result, in input order, to a fresh file next to `path`, then moves it there. */
  async commit(path: string): Promise<void> {
    // One fixed name, so a run killed while writing it leaves nothing the next run does not replace.
    const temp = `${path}.partial`;
    await removeStale(temp);
    const out = createWriteStream(temp, { flags: 'wx', mode: 0o644 });
    try {
      await once(out, 'open');
      let chunk: string[] = [];
      let size = 0;
      for (let ordinal = 0; ordinal < this.count; ordinal++) {
        if (!this.has(ordinal)) continue;
        const text = this.journal.read(this.placeOf(ordinal));
        chunk.push(text, '\n');
        size += text.length + 1;
        if (size >= 1 << 16) {
          if (!out.write(chunk.join(''))) await once(out, 'drain');
          chunk = [];
          size = 0;
        }
      }
      out.end(chunk.join(''));
      await once(out, 'finish');
      await rename(temp, path);
    } catch (err) {
      out.destroy();
      await rm(temp, { force: true });
      throw err;
    }
  }
}
