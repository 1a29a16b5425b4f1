// How a self-hosted ComfyUI engine (aiohttp) answers what it does not serve, and its bare answers.
// The engine registers a static route on `/` for its web frontend, which takes every path no API
// route takes: a GET (or HEAD) of a file it lacks is a 404 with an empty, chunked body typed
// `application/octet-stream`; any other method is that route's `405: Method Not Allowed` page in
// plain text. Recorded on 0.3.18 and 0.3.64 (recordings/engine-http.json).
import { STATUS_CODES } from 'node:http';
import type { RequestContext } from '../contract.js';
import { BodyError, parseJsonBody, readBody } from '../http-kit.js';

/** aiohttp's default error page's text: `<status>: <reason>`. */
export function plainStatusText(status: number): string {
  return `${status}: ${STATUS_CODES[status] ?? 'Error'}`;
}

/**
 * aiohttp's answer to `status` without a handler. On the engine a 404 is its static route's: empty
 * for GET and HEAD, a plain-text 405 for any other method (the route takes only those two). The
 * reference job API server in front of it (the jobs listener) has no static route: its plain page.
 */
export function sendPlainStatus(ctx: RequestContext, status: number, headers: Record<string, string> = {}): void {
  if (status === 404 && ctx.serves !== 'jobs') return sendUnrouted(ctx);
  sendPlainPage(ctx, status, headers);
}

export function sendPlainPage(ctx: RequestContext, status: number, headers: Record<string, string> = {}): void {
  const text = plainStatusText(status);
  ctx.res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  ctx.res.end(text);
}

function sendUnrouted(ctx: RequestContext): void {
  const method = ctx.req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return sendPlainPage(ctx, 405, { allow: 'GET,HEAD' });
  // No Content-Length: Node sends the empty body chunked, as aiohttp's file response does.
  ctx.res.writeHead(404, { 'content-type': 'application/octet-stream' });
  ctx.res.end();
}

/** A handler's bare `web.Response(status=...)`: no body and no Content-Type (the engine's 200 on POST /queue and /interrupt). */
export function sendBare(ctx: RequestContext, status: number): void {
  ctx.res.writeHead(status, { 'content-length': 0 });
  ctx.res.end();
}

/** The engine parses a JSON body whatever its Content-Type (aiohttp's `request.json()`). */
export async function readEngineJson(ctx: RequestContext): Promise<unknown> {
  return parseJsonBody((await readBody(ctx)).toString('utf8'));
}

/** A request that breaks a Python handler (the reference server's on a JSON array body): answered with aiohttp's 500 page. */
export class HandlerCrash extends Error {}

/** aiohttp's page for an exception in a handler. */
export function sendCrashPage(ctx: RequestContext): void {
  const text = '500 Internal Server Error\n\nServer got itself in trouble';
  ctx.res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  ctx.res.end(text);
}

/** A JSON body as the reference job API server reads it: whatever its Content-Type; a JSON array breaks its handler (HandlerCrash). */
export async function readProxyJson(ctx: RequestContext): Promise<unknown> {
  let body: unknown;
  try {
    body = await readEngineJson(ctx);
  } catch (err) {
    // Its handlers catch any failure of `request.json()` with one sentence.
    if (err instanceof BodyError && err.status === 400) throw new BodyError(400, 'Body must be JSON.');
    throw err;
  }
  if (Array.isArray(body)) throw new HandlerCrash();
  return body;
}
