// Small request/response helpers every API family of the dev-server uses, so each answers in its
// own error shape without repeating the plumbing.
import type { RequestContext } from './contract.js';
import { headerName } from './core/names.js';

export class BodyError extends Error {
  constructor(readonly status: 400 | 413 | 415, message: string) {
    super(message);
  }
}

export const DEFAULT_MAX_BODY = 32 * 1024 * 1024;

export async function readBody(ctx: RequestContext, limit = ctx.state.options.maxBodyBytes): Promise<Buffer> {
  const declared = Number(ctx.req.headers['content-length'] ?? 0);
  if (declared > limit) throw new BodyError(413, `request body over the ${limit}-byte limit`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyError(413, `request body over the ${limit}-byte limit`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Deeper JSON is refused: handlers walk bodies recursively (canonical form, schema checks, echoes). */
export const MAX_JSON_DEPTH = 512;

/** Whether a parsed JSON value nests objects/arrays deeper than `max`; iterative, so any depth is safe to check. */
export function jsonTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

export const TOO_DEEP_MESSAGE = `body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`;

/** Reads a JSON body; content type must be JSON (or absent), the text must parse, nesting is capped. */
export async function readJson(ctx: RequestContext): Promise<unknown> {
  const type = String(ctx.req.headers['content-type'] ?? 'application/json');
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new BodyError(415, `expected a JSON body (Content-Type: application/json), got ${type}`);
  }
  return parseJsonBody((await readBody(ctx)).toString('utf8'));
}

/** Parses a body's text; BodyError(400) when it is not JSON or nests too deep. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new BodyError(400, `body is not valid JSON: ${(err as Error).message}`);
  }
  if (jsonTooDeep(value)) throw new BodyError(400, TOO_DEEP_MESSAGE);
  return value;
}

export function sendJson(
  ctx: RequestContext,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  ctx.res.end(text);
}

export function sendEmpty(ctx: RequestContext, status: number, headers: Record<string, string> = {}): void {
  ctx.res.writeHead(status, headers);
  ctx.res.end();
}

/** The jobs API ErrorEnvelope: {error: {code, message, details}}, `details` null when there are none (as the reference server). */
export function sendJobsError(
  ctx: RequestContext,
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown> | null,
  headers: Record<string, string> = {},
): void {
  sendJson(ctx, status, { error: { code, message, details: details ?? null } }, headers);
}

/** The models API RouterErrorResponse plus the error-type header (X-Comfy-Error-Type, or the neutral name). */
export function sendModelsError(
  ctx: RequestContext,
  status: number,
  errorType: string,
  detail: unknown,
  headers: Record<string, string> = {},
): void {
  const body = Array.isArray(detail) ? { detail } : { detail, error_type: errorType };
  sendJson(ctx, status, body, { [headerName(ctx.state, 'errorType')]: errorType, ...headers });
}

/**
 * The legacy API: the interface leaves the body unshown; the published cloud document's
 * ErrorResponse is `{code, message}`, and the local engine's `{error: {type, message}}` rides beside it.
 */
export function sendLegacyError(ctx: RequestContext, status: number, type: string, message: string, extra: Record<string, unknown> = {}): void {
  sendJson(ctx, status, { code: type, message, error: { type, message, ...extra } });
}
