// How the engine's user-data handlers answer (aiohttp): text pages, bare statuses, Python JSON,
// and the file itself as its static-file answer (ETag, Last-Modified, 304, one byte range).
import { createHash } from 'node:crypto';
import type { RequestContext } from '../contract.js';
import { pythonJson } from './py-json.js';
import type { UserFile } from './store.js';

/** `web.Response(status, text=...)`. */
export function sendText(ctx: RequestContext, status: number, text: string): void {
  ctx.res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  ctx.res.end(text);
}

/** `web.Response(status)`: no body, no Content-Type; an optional reason phrase in the status line. */
export function sendBareStatus(ctx: RequestContext, status: number, reason?: string): void {
  if (status === 204) ctx.res.writeHead(204, {});
  else if (reason) ctx.res.writeHead(status, reason, { 'content-length': 0 });
  else ctx.res.writeHead(status, { 'content-length': 0 });
  ctx.res.end();
}

/** aiohttp's page for an exception a handler let out. */
export function sendServerTrouble(ctx: RequestContext): void {
  sendText(ctx, 500, '500 Internal Server Error\n\nServer got itself in trouble');
}

/** `web.json_response(value)`. */
export function sendPythonJson(ctx: RequestContext, status: number, value: unknown): void {
  const text = pythonJson(value);
  ctx.res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  ctx.res.end(text);
}

/** A file response's 403 or 404 for what is not a file: empty, chunked, typed as bytes. */
export function sendStaticRefusal(ctx: RequestContext, status: number): void {
  ctx.res.writeHead(status, { 'content-type': 'application/octet-stream' });
  ctx.res.end();
}

const TYPES: Record<string, string> = { json: 'application/json', txt: 'text/plain', png: 'image/png', css: 'text/css', js: 'text/javascript' };

function typeOf(name: string): string {
  const ext = /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) || 'application/octet-stream';
}

function etagOf(file: UserFile): string {
  return `"${createHash('sha1').update(file.bytes).digest('hex').slice(0, 16)}-${file.bytes.length.toString(16)}"`;
}

/** The bytes of `file` as aiohttp's FileResponse serves them. */
export function sendUserFile(ctx: RequestContext, name: string, file: UserFile): void {
  const etag = etagOf(file);
  const lastModified = new Date(Math.floor(file.modified) * 1000).toUTCString();
  const since = Date.parse(ctx.req.headers['if-modified-since'] ?? '');
  if (ctx.req.headers['if-none-match'] === etag || (!Number.isNaN(since) && since >= Math.floor(file.modified) * 1000)) {
    ctx.res.writeHead(304, { etag, 'last-modified': lastModified });
    return void ctx.res.end();
  }
  const headers = { 'content-type': typeOf(name), etag, 'last-modified': lastModified, 'accept-ranges': 'bytes' };
  const range = /^bytes=(\d+)-(\d*)$/.exec(ctx.req.headers.range ?? '');
  const size = file.bytes.length;
  if (range && Number(range[1]) < size) {
    const start = Number(range[1]);
    const end = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
    ctx.res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
    return void ctx.res.end(ctx.req.method === 'HEAD' ? undefined : file.bytes.subarray(start, end + 1));
  }
  ctx.res.writeHead(200, { ...headers, 'content-length': size });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : file.bytes);
}
