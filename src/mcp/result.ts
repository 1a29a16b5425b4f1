// A tool's outcome as an MCP CallToolResult. Server text is untrusted: every string (keys too) is
// stripped of control characters, and no credential of the profile appears anywhere in a result,
// whatever a server echoed. A failure is a result with isError, wes's error code, exit code and
// hint (never a protocol error, never a crash of the server).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InterruptedError, toWesError } from '../errors.js';
import { hintFor } from '../render/error.js';
import { sanitize, sanitizeDeep } from '../util/sanitize.js';
import { stringifyJsonExact } from '../util/exact-json.js';
import type { ToolOutput } from './tool.js';

export const REDACTED = '[credential redacted]';

/** Replaces every secret (of at least 4 characters) wherever it appears in the value's strings. */
export function redact<T>(value: T, secrets: readonly string[]): T {
  const shown = secrets.filter((s) => s.length >= 4);
  if (shown.length === 0) return value;
  const scrub = (text: string) => shown.reduce((t, s) => t.split(s).join(REDACTED), text);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrub(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** Structured values: exact numbers (workflows are read digit for digit) as plain JSON, server text sanitized, credentials out. */
function safe<T>(value: T, secrets: readonly string[]): T {
  const plain = JSON.parse(stringifyJsonExact(value)) as T;
  return redact(sanitizeDeep(plain), secrets);
}

export function successResult(out: ToolOutput, secrets: readonly string[]): CallToolResult {
  const structured = safe(out.structured, secrets);
  const text = `${redact(sanitize(out.summary), secrets)}\n${JSON.stringify(structured, null, 2)}`;
  const images = (out.images ?? []).map((img) => ({ type: 'image' as const, data: img.data.toString('base64'), mimeType: img.mimeType }));
  return { content: [{ type: 'text', text }, ...images], structuredContent: structured };
}

/** What a failed call reports: the message, wes's code and exit code, the hint, the service's details. */
export function errorResult(thrown: unknown, secrets: readonly string[]): CallToolResult {
  const err = toWesError(thrown);
  const stop = err instanceof InterruptedError ? err : undefined;
  const hint = stop ? stop.resume && `resume with: ${stop.resume}` : (err.hint ?? hintFor(err));
  const details = stop ? { ...stop.facts, ...(stop.resume ? { resume: stop.resume } : {}) } : err.details;
  const error = safe(
    {
      code: err.code,
      exit_code: err.exitCode,
      message: stop ? stop.said : err.message,
      ...(hint ? { hint } : {}),
      ...(err.status !== undefined ? { status: err.status } : {}),
      ...(err.requestId !== undefined ? { request_id: err.requestId } : {}),
      ...(details !== undefined && details !== null ? { details } : {}),
    },
    secrets,
  );
  const lines = [`error (${error.code}, wes exit code ${error.exit_code}): ${error.message}`];
  if (error.hint) lines.push(`hint: ${error.hint}`);
  if (error.details !== undefined) lines.push(`details: ${JSON.stringify(error.details)}`);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { error } };
}
