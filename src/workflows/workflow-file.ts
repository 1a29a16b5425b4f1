// Reads the workflow a user hands to `jobs submit` and refuses, before any request, what the
// service would refuse anyway: text that is not JSON (with line and column), a workflow saved
// in the editor's UI format instead of the API format (unless the caller converts it: --convert),
// and anything that is not an object. Numbers keep every digit (64-bit seeds).
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { isLosslessNumber, JsonRefusedError, parseJsonExact } from '../util/exact-json.js';
import { findJsonProblem, notJsonError } from './json-position.js';
import { whyUnreadable } from '../files/unreadable.js';

export const UI_FORMAT_HINT = 'convert it with `wes workflows convert FILE -o api.json`, or export the workflow in API format (the editor\'s "Export (API)" menu item)';
/** The hint of a command that converts on request. */
export const UI_FORMAT_CONVERT_HINT = 'add --convert to convert it to the API format with the server\'s node definitions (`wes workflows convert FILE` shows the result), or export it with the editor\'s "Export (API)"';

/** What an API-format workflow is, for a file that is JSON but no workflow (not one that converting would help). */
export const API_FORMAT_HINT = 'an API-format workflow is a JSON object keyed by node id, each node {"class_type": ..., "inputs": {...}} (README: Quick start); the editor saves one with "Export (API)"';

/** Turns a UI-format workflow into the API format (the caller's --convert). */
export type UiConverter = (ui: Record<string, unknown>, source: string) => Promise<Record<string, unknown>>;

/** A UI-format save carries `nodes` and `links` arrays; the API format is keyed by node id. */
export function isUiFormat(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.nodes) && Array.isArray(v.links);
}

/** JSON text of a workflow (either format) as a value, numbers exact; a syntax error names its line and column. */
export function parseWorkflowJson(text: string, source: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return parseJsonExact(body);
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new UsageError(`${source}: ${err.message}`);
    const problem = findJsonProblem(body);
    // JSON lines: a value, then another on the next line. They are a batch, not one workflow.
    const jsonLines = problem?.message.includes('end of input after the value') || /\.(jsonl|ndjson)$/i.test(source);
    const hint = jsonLines ? `one workflow per line is a batch: \`wes jobs submit --batch ${source}\` submits a job per line` : 'the workflow must be a JSON file in API format';
    throw notJsonError(body, source, hint, err, problem);
  }
}

/** Parses workflow text; `source` names it in messages (a path, or "standard input"). */
export function parseWorkflow(text: string, source: string, hint = UI_FORMAT_HINT): Record<string, unknown> {
  return checkApiFormat(parseWorkflowJson(text, source), source, hint);
}

function checkApiFormat(value: unknown, source: string, hint: string): Record<string, unknown> {
  if (isUiFormat(value)) {
    throw new UsageError(`${source} is a workflow in UI format (it has "nodes" and "links" arrays); the service runs the API format`, hint);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isLosslessNumber(value)) {
    throw new UsageError(`${source} is not an API-format workflow: expected a JSON object keyed by node id`, API_FORMAT_HINT);
  }
  // The server would refuse it as having no output; said here, and nothing is sent.
  if (Object.keys(value).length === 0) throw new UsageError(`${source} holds no nodes: there is nothing to run`, API_FORMAT_HINT);
  return value as Record<string, unknown>;
}

export interface StdinReading {
  /** Ends the read (Ctrl-C, SIGTERM) with the signal's reason. */
  signal?: AbortSignal;
  /** Standard input is a terminal: a person is typing, so tell them how to end. */
  isTTY?: boolean;
  say?: (line: string) => void;
}

async function readAll(stream: Readable, reading: StdinReading): Promise<string> {
  if (reading.isTTY) reading.say?.('reading workflow JSON from stdin; end with Ctrl-D');
  const { signal } = reading;
  // A pending read of a terminal only ends with the stream: Ctrl-C must let go of it.
  const stop = () => stream.destroy();
  signal?.addEventListener('abort', stop, { once: true });
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  } catch (err) {
    if (!signal?.aborted) throw err;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  if (signal?.aborted) throw signal.reason;
  return Buffer.concat(chunks).toString('utf8');
}

/** The text of a workflow file, or of standard input for `-`. */
export async function readWorkflowText(path: string, stdin: Readable, reading: StdinReading = {}): Promise<{ text: string; source: string }> {
  if (path === '-') return { text: await readAll(stdin, reading), source: 'standard input' };
  return { text: await readLocalText(path), source: path };
}

/** A local file's text; a missing or unreadable file is a usage error naming it. */
export async function readLocalText(path: string): Promise<string> {
  return readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${whyUnreadable(err)}`);
  });
}

/** An API-format workflow from a file; a UI-format one goes through `convert` when given, else is refused. */
export async function readWorkflow(path: string, stdin: Readable, convert?: UiConverter, reading: StdinReading = {}): Promise<Record<string, unknown>> {
  const { text, source } = await readWorkflowText(path, stdin, reading);
  const value = parseWorkflowJson(text, source);
  if (convert && isUiFormat(value)) return convert(value as Record<string, unknown>, source);
  return checkApiFormat(value, source, UI_FORMAT_CONVERT_HINT);
}
