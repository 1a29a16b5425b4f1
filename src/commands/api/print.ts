// How `wes api` shows an answer: the status line and headers first with --include, then the body
// as received. Piped, the bytes go out untouched; on a terminal JSON is indented, text is
// stripped of control sequences, and binary is described instead of dumped.
import { STATUS_CODES } from 'node:http';
import type { IOStreams } from '../../render/io.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import { toSafeJson } from '../../util/safe-json.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function printHead(io: IOStreams, answer: Answer): void {
  const lines = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(answer.headers)) lines.push(`${sanitizeLine(name)}: ${sanitizeLine(value)}`);
  io.stdout.write(lines.join('\n') + '\n\n');
}

function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, 4096);
  if (sample.includes(0)) return true;
  return sample.toString('utf8').includes('\ufffd');
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

export function printBody(io: IOStreams, answer: Answer): void {
  const { body } = answer;
  if (body.length === 0) return;
  if (!io.stdoutIsTTY) {
    io.stdout.write(body);
    return;
  }
  const json = parseJson(body);
  if (json.ok) {
    io.stdout.write(toSafeJson(json.value, 2) + '\n');
    return;
  }
  if (looksBinary(body)) {
    const type = answer.headers['content-type'] ? `, ${sanitizeLine(answer.headers['content-type'])}` : '';
    io.notice(`(a binary body of ${body.length} bytes${type}: not printed on a terminal; redirect stdout to a file to keep it)`);
    return;
  }
  const text = sanitize(body.toString('utf8'));
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
