// The results of a batch: one NDJSON line per input line, in input order, whatever order the jobs
// finish in; to stdout as they become printable, or to a file that is replaced only when the run
// ends (normally, by Ctrl-C or by --timeout), so an earlier results file survives a crash. A
// results file read back with --resume says which lines already succeeded.
import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { UsageError } from '../../errors.js';
import { toSafeJson } from '../../render/json.js';
import { REFUSED, type BatchResult } from '../../surfaces/jobs/batch-run.js';

export interface ResultsSink {
  write(line: string): void;
  /** Finishes the output (a file is moved to its final name). */
  commit(): Promise<void>;
}

export function streamSink(out: Writable): ResultsSink {
  return { write: (line) => void out.write(line), commit: async () => {} };
}

export async function fileSink(path: string): Promise<ResultsSink> {
  const temp = `${path}.${process.pid}.partial`;
  const out = createWriteStream(temp, { flags: 'w' });
  await once(out, 'open').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot write the results file ${path}: ${err.code ?? err.message}`);
  });
  return {
    write: (line) => void out.write(line),
    async commit() {
      out.end();
      await once(out, 'close');
      await rename(temp, path).catch(async (err: unknown) => {
        await rm(temp, { force: true });
        throw err;
      });
    },
  };
}

/** Holds results back until every earlier line has one, then writes them in input order. */
export class OrderedResults {
  private readonly pending = new Map<number, BatchResult>();
  private cursor = 0;

  constructor(
    private readonly order: number[],
    private readonly sink: ResultsSink,
  ) {}

  put(result: BatchResult): void {
    this.pending.set(result.index, result);
    while (this.cursor < this.order.length && this.pending.has(this.order[this.cursor]!)) {
      const index = this.order[this.cursor++]!;
      this.sink.write(toSafeJson(this.pending.get(index)) + '\n');
      this.pending.delete(index);
    }
  }
}

function isResult(value: unknown): value is BatchResult {
  const r = value as Partial<BatchResult> | null;
  return typeof r === 'object' && r !== null && Number.isInteger(r.index) && typeof r.status === 'string' && typeof r.idempotency_key === 'string';
}

/** Reads an earlier results file: the result of each line, by index (the last one wins). */
export async function readResults(path: string): Promise<Map<number, BatchResult>> {
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read the results file ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  const results = new Map<number, BatchResult>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new UsageError(`${path} line ${i + 1} is not JSON: not a results file of wes jobs submit --batch`);
    }
    if (!isResult(value)) throw new UsageError(`${path} line ${i + 1} is not a batch result (index, status, idempotency_key)`);
    results.set(value.index, value);
  });
  return results;
}

/** Whether a key was derived from this line's key (the line itself, or a later attempt of it). */
function sameLine(key: string, lineKey: string): boolean {
  return key === lineKey || (key.startsWith(`${lineKey}.`) && /^\d+$/.test(key.slice(lineKey.length + 1)));
}

/** A line needs no new run when it succeeded before, as the same line, with no error. */
export function alreadyDone(previous: BatchResult | undefined, lineKey: string): previous is BatchResult {
  return previous !== undefined && previous.status === 'succeeded' && previous.error === null && sameLine(previous.idempotency_key, lineKey);
}

/** Outcomes after which the line's job is over for good: running it again needs a new job. */
const ENDED_FOR_GOOD = new Set(['failed', 'canceled', 'expired', REFUSED]);

/**
 * The Idempotency-Key a line runs with now. A line whose job failed, was canceled, expired or
 * was refused gets a new attempt (`KEY.2`, `KEY.3`...), or the service would hand back the same
 * failed job; any other line keeps the key it used, since its job may exist (running, or made
 * by a submit whose answer never arrived) and must be found, not made again.
 */
export function keyForRun(lineKey: string, previous: BatchResult | undefined): string {
  if (!previous || !sameLine(previous.idempotency_key, lineKey)) return lineKey;
  if (!ENDED_FOR_GOOD.has(previous.status)) return previous.idempotency_key;
  const attempt = previous.idempotency_key === lineKey ? 1 : Number(previous.idempotency_key.slice(lineKey.length + 1));
  return `${lineKey}.${attempt + 1}`;
}
