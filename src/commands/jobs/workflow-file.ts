// Reads the workflow a user hands to `jobs submit` and refuses, before any request, what the
// service would refuse anyway: text that is not JSON (with line and column), a workflow saved
// in the editor's UI format instead of the API format, and anything that is not an object.
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../../errors.js';
import { isLosslessNumber, JsonNumberRangeError, parseJsonExact } from '../../util/exact-json.js';
import { findJsonProblem } from './json-position.js';

export const UI_FORMAT_HINT = 'export the workflow in API format (the editor\'s "Export (API)" menu item), not its UI save format';

/** A UI-format save carries `nodes` and `links` arrays; the API format is keyed by node id. */
export function isUiFormat(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.nodes) && Array.isArray(v.links);
}

/** Parses workflow text; `source` names it in messages (a path, or "standard input"). */
export function parseWorkflow(text: string, source: string): Record<string, unknown> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = parseJsonExact(body);
  } catch (err) {
    if (err instanceof JsonNumberRangeError) throw new UsageError(`${source}: ${err.message}`);
    const problem = findJsonProblem(body);
    if (problem) throw new UsageError(`${source}:${problem.line}:${problem.column}: not valid JSON: ${problem.message}`, 'the workflow must be a JSON file in API format');
    throw new UsageError(`${source}: not valid JSON (${(err as Error).message})`);
  }
  if (isUiFormat(value)) {
    throw new UsageError(`${source} is a workflow in UI format (it has "nodes" and "links" arrays); the service runs the API format`, UI_FORMAT_HINT);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isLosslessNumber(value)) {
    throw new UsageError(`${source} is not an API-format workflow: expected a JSON object keyed by node id`, UI_FORMAT_HINT);
  }
  return value as Record<string, unknown>;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function readWorkflow(path: string, stdin: Readable): Promise<Record<string, unknown>> {
  if (path === '-') return parseWorkflow(await readAll(stdin), 'standard input');
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a folder' : err.message}`);
  });
  return parseWorkflow(text, path);
}
