// The results of a batch: one NDJSON line per input line, in input order, whatever order the jobs
// finish in; to stdout as they become printable, or to a results file assembled from the journal
// when the run ends (normally, by Ctrl-C or by --timeout). After a crash the journal is still
// there: --resume reads the results file and its journal to learn which lines already succeeded,
// which were sent where, and which need a new attempt.
import { createWriteStream, existsSync, openSync, readSync } from 'node:fs';
import { lstat, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { UsageError } from '../../errors.js';
import { toSafeJson } from '../../render/json.js';
import { REFUSED, type BatchResult } from '../../clients/jobs/batch-run.js';
import { journalPathFor, recordsOfFile, type Journal, type Place } from './batch-journal.js';

/** What an earlier run left for a line: its latest result, or a send not yet followed by one. */
export interface Previous {
  status: string;
  error: boolean;
  idempotency_key: string;
  /** Where its job is (or may be). */
  endpoint?: string;
  /** The result record's text, for a line that needs no new run. */
  text?: () => string;
}

/** Statuses that mean a line was sent but no result came back (a crash, or a kill). */
export const SENT = 'sent';

function isResult(value: unknown): value is BatchResult {
  const r = value as Partial<BatchResult> | null;
  return typeof r === 'object' && r !== null && Number.isInteger(r.index) && typeof r.status === 'string' && typeof r.idempotency_key === 'string';
}

interface SentRecord {
  index: number;
  idempotency_key: string;
  sent_to: string;
  job_id?: string;
}

function isSent(value: unknown): value is SentRecord {
  const r = value as Partial<SentRecord> | null;
  return typeof r === 'object' && r !== null && Number.isInteger(r.index) && typeof r.idempotency_key === 'string' && typeof r.sent_to === 'string';
}

export function sentRecord(index: number, key: string, endpoint: string, jobId?: string): string {
  return toSafeJson(jobId === undefined ? { index, idempotency_key: key, sent_to: endpoint } : { index, idempotency_key: key, sent_to: endpoint, job_id: jobId });
}

/** Folds one record into what is known of its line (the later record wins). */
function fold(previous: Map<number, Previous>, value: unknown, text: () => string): boolean {
  if (isResult(value)) {
    const endpoint = typeof value.endpoint === 'string' ? value.endpoint : undefined;
    previous.set(value.index, { status: value.status, error: value.error !== null && value.error !== undefined, idempotency_key: value.idempotency_key, endpoint, text });
    return true;
  }
  if (isSent(value)) {
    previous.set(value.index, { status: SENT, error: false, idempotency_key: value.idempotency_key, endpoint: value.sent_to });
    return true;
  }
  return false;
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

/** Whether a key was derived from this line's key (the line itself, or a later attempt of it). */
function sameLine(key: string, lineKey: string): boolean {
  return key === lineKey || (key.startsWith(`${lineKey}.`) && /^\d+$/.test(key.slice(lineKey.length + 1)));
}

/** A line needs no new run when it succeeded before, as the same line, with no error. */
export function alreadyDone(previous: Previous | undefined, lineKey: string): previous is Previous {
  return previous !== undefined && previous.status === 'succeeded' && !previous.error && sameLine(previous.idempotency_key, lineKey);
}

/** Outcomes after which the line's job is over for good: running it again needs a new job. */
const ENDED_FOR_GOOD = new Set(['failed', 'canceled', 'expired', REFUSED]);

/**
 * The Idempotency-Key a line runs with now. A line whose job failed, was canceled, expired or
 * was refused gets a new attempt (`KEY.2`, `KEY.3`...), or the service would hand back the same
 * failed job; any other line keeps the key it used, since its job may exist (running, or made
 * by a submit whose answer never arrived) and must be found, not made again.
 */
export function keyForRun(lineKey: string, previous: Pick<Previous, 'status' | 'idempotency_key'> | undefined): string {
  if (!previous || !sameLine(previous.idempotency_key, lineKey)) return lineKey;
  if (!ENDED_FOR_GOOD.has(previous.status)) return previous.idempotency_key;
  const attempt = previous.idempotency_key === lineKey ? 1 : Number(previous.idempotency_key.slice(lineKey.length + 1));
  return `${lineKey}.${attempt + 1}`;
}

/** The endpoint a line must go back to: where its job may exist under the key it runs with now. */
export function pinFor(runKey: string, previous: Previous | undefined): string | undefined {
  return previous && previous.idempotency_key === runKey ? previous.endpoint : undefined;
}
