// Reads the input of `jobs submit --batch FILE.jsonl`: one job per non-blank line, either an
// API-format workflow or `{"workflow": {...}, "set": {"NODE.INPUT": value}}`, streamed (a file of
// 100 000 lines is never held whole). Every line is checked before anything is sent (a bad line
// refuses the whole batch, naming it), and each line gets an id derived from what it is (file,
// place, text, --set flags), kept in its results and journal records, so --resume never takes an
// earlier run's record of another line (a file edited between runs) for this one's.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { UsageError } from '../../errors.js';
import { isLosslessNumber, JsonRefusedError, parseJsonExact, stringifyJsonExact } from '../../util/exact-json.js';
import { sha256Hex } from '../../util/sha256-hex.js';
import { findJsonProblem } from '../../workflows/json-position.js';
import { parseSet, type InputAssignment } from '../jobs/inputs.js';
import { isUiFormat, UI_FORMAT_HINT } from '../../workflows/workflow-file.js';
import { whyUnreadable } from '../../files/unreadable.js';

export interface BatchLine {
  /** The line number in the file (1-based); results and download folders are named by it. */
  index: number;
  workflow: Record<string, unknown>;
  /** The command's --set flags, then the line's own `set` (values as given, never files). */
  assignments: InputAssignment[];
  /** Which line of which batch this is: its file, place, text and the --set flags applied to it. */
  id: string;
}

const SHOWN_PROBLEMS = 5;
const BATCH_HINT = 'each line holds one API-format workflow, or {"workflow": {...}, "set": {"NODE.INPUT": value}}';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** A wrapper line has only `workflow` (an object) and optionally `set`; anything else is a workflow. */
function unwrap(value: Record<string, unknown>): { workflow: unknown; set: unknown } {
  const keys = Object.keys(value);
  if (isObject(value.workflow) && keys.every((k) => k === 'workflow' || k === 'set')) return { workflow: value.workflow, set: value.set };
  return { workflow: value, set: undefined };
}

function parseLine(text: string, where: string, globalSets: string[]): Omit<BatchLine, 'index' | 'id'> {
  let value: unknown;
  try {
    value = parseJsonExact(text);
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new UsageError(`${where}: ${err.message}`);
    const problem = findJsonProblem(text);
    throw new UsageError(`${where}${problem ? `, column ${problem.column}` : ''}: not valid JSON (${problem?.message ?? (err as Error).message})`);
  }
  if (!isObject(value)) throw new UsageError(`${where}: not a JSON object`);
  const { workflow, set } = unwrap(value);
  if (isUiFormat(workflow)) throw new UsageError(`${where}: a workflow in UI format (it has "nodes" and "links" arrays)`, UI_FORMAT_HINT);
  if (!isObject(workflow)) throw new UsageError(`${where}: "workflow" is not an API-format workflow (an object keyed by node id)`);
  if (set !== undefined && !isObject(set)) throw new UsageError(`${where}: "set" must be an object of "NODE.INPUT": value`);
  // A line's values are JSON already: written back as JSON, parseSet reads them unchanged (a
  // string starting with '@' stays a string; files are for --set flags only).
  const lineSets = Object.entries(set ?? {}).map(([target, v]) => `${target}=${stringifyJsonExact(v)}`);
  const assignments = [...globalSets, ...lineSets].map((arg) => {
    try {
      return parseSet(arg, workflow);
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${where}: ${err.message}`, err.hint);
      throw err;
    }
  });
  return { workflow, assignments };
}

/**
 * sha256 of where the line comes from, its place, its text and the --set flags applied to it (the
 * form of the keys that wes derived from lines before keys were single use, so older results still match).
 */
export function lineId(source: string, index: number, text: string, globalSets: string[]): string {
  const digest = sha256Hex(JSON.stringify([source, index, text, globalSets]));
  return `wes-batch-${digest.slice(0, 48)}`;
}

/** A checked batch, read again line by line while it runs (never held whole). */
export interface BatchInput {
  /** What names the input in keys and hints: the file's real path, or "-" for standard input. */
  source: string;
  /** How many jobs (non-blank lines) it holds. */
  count: number;
  /** The lines again, in order, parsed and keyed (standard input comes back from a private spool). */
  lines(): AsyncGenerator<BatchLine>;
  /** Removes the spool of standard input. */
  dispose(): Promise<void>;
}

/** The text lines of a file, numbered from 1 (blank ones included), streamed in chunks. */
async function* textLines(path: string): AsyncGenerator<{ number: number; text: string }> {
  const decoder = new StringDecoder('utf8');
  let tail = '';
  let number = 0;
  for await (const chunk of createReadStream(path)) {
    const text = tail + decoder.write(chunk as Buffer);
    const parts = text.split('\n');
    tail = parts.pop()!;
    for (const part of parts) yield { number: ++number, text: number === 1 ? part.replace(/^\ufeff/, '') : part };
  }
  tail += decoder.end();
  if (tail !== '') yield { number: ++number, text: number === 1 ? tail.replace(/^\ufeff/, '') : tail };
}

/** Standard input, copied into a private temp file so that it can be checked whole and then run. */
async function spoolStdin(stdin: Readable): Promise<{ path: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'wes-batch-stdin-'));
  const path = join(dir, 'batch.jsonl');
  await pipeline(stdin, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  return { path, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Checks every line of the batch before anything is sent (a bad line refuses the whole batch,
 * naming it), holding only the problems found; the lines are read again when the batch runs.
 */
export async function readBatch(path: string, stdin: Readable, globalSets: string[]): Promise<BatchInput> {
  let file = path;
  let source: string;
  let dispose = async () => {};
  if (path === '-') {
    ({ path: file, dispose } = await spoolStdin(stdin));
    source = '-';
  } else {
    const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${path}: ${whyUnreadable(err)}`);
    });
    if (info.isDirectory()) throw new UsageError(`cannot read ${path}: it is a folder`);
    source = await realpath(path);
  }
  const name = path === '-' ? 'standard input' : path;
  const problems: UsageError[] = [];
  let count = 0;
  try {
    for await (const { number, text } of textLines(file)) {
      const line = text.trim();
      if (line === '') continue;
      try {
        parseLine(line, `${name} line ${number}`, globalSets);
        count++;
      } catch (err) {
        if (!(err instanceof UsageError)) throw err;
        problems.push(err);
      }
    }
  } catch (err) {
    await dispose();
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (problems.length || count === 0) await dispose();
  if (problems.length) {
    const shown = problems.slice(0, SHOWN_PROBLEMS).map((p) => p.message);
    if (problems.length > SHOWN_PROBLEMS) shown.push(`… and ${problems.length - SHOWN_PROBLEMS} more`);
    throw new UsageError(`${problems.length} line(s) of the batch cannot be submitted; nothing was sent:\n  ${shown.join('\n  ')}`, problems[0]!.hint ?? BATCH_HINT);
  }
  if (count === 0) throw new UsageError(`${name} holds no jobs (every line is blank)`, BATCH_HINT);
  return {
    source,
    count,
    async *lines() {
      for await (const { number, text } of textLines(file)) {
        const line = text.trim();
        if (line === '') continue;
        yield { index: number, ...parseLine(line, `${name} line ${number}`, globalSets), id: lineId(source, number, line, globalSets) };
      }
    },
    dispose,
  };
}
