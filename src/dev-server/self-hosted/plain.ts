// How a self-hosted ComfyUI engine (aiohttp) answers what it does not serve: a plain-text
// `404: Not Found` (or `405: Method Not Allowed`), and bare statuses with an empty body where its
// handlers return `web.Response(status=...)`. Recorded in test/fixtures/comfyui-selfhosted/.
import { STATUS_CODES } from 'node:http';
import type { RequestContext } from '../contract.js';
import { parseJsonBody, readBody } from '../http-kit.js';

/** aiohttp's default error page's text: `<status>: <reason>`. */
export function plainStatusText(status: number): string {
  return `${status}: ${STATUS_CODES[status] ?? 'Error'}`;
}

/** aiohttp's default error page, text/plain. */
export function sendPlainStatus(ctx: RequestContext, status: number, headers: Record<string, string> = {}): void {
  const text = plainStatusText(status);
  ctx.res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  ctx.res.end(text);
}

/** A handler's bare `web.Response(status=...)`: no body at all (the engine's 200 on POST /queue and /interrupt). */
export function sendBare(ctx: RequestContext, status: number): void {
  ctx.res.writeHead(status, { 'content-length': 0 });
  ctx.res.end();
}

/** The engine parses a JSON body whatever its Content-Type (aiohttp's `request.json()`). */
export async function readEngineJson(ctx: RequestContext): Promise<unknown> {
  return parseJsonBody((await readBody(ctx)).toString('utf8'));
}
