// The user-data routes of the hosted cloud API v1, as openapi-cloud.yaml publishes them
// (getUserdata, getUserdataFile, postUserdataFile, deleteUserdataFile): the engine's routes
// without the move, full file information always (`split` and `full_info` ignored on the list),
// refusals in text/plain, files served as bytes. The cloud keeps files in a database: looking
// never creates a folder. Also the account (getUser) and the workflow templates
// (getWorkflowTemplates, an empty object as published).
import type { RequestContext } from '../contract.js';
import type { Route } from '../route-table.js';
import { readBody, sendJson } from '../http-kit.js';
import { sendText } from './answers.js';
import { engineName, epochSeconds, resolveUserPath, userFolderOf } from './store.js';

function pathOf(ctx: RequestContext, routed: string): string | null {
  const rel = resolveUserPath(engineName(routed));
  if (rel === null) sendText(ctx, 403, 'The requested path is not allowed');
  return rel;
}

async function listUserData(ctx: RequestContext): Promise<void> {
  const dir = ctx.url.searchParams.get('dir');
  if (!dir) return sendText(ctx, 400, 'Directory not provided');
  const rel = resolveUserPath(dir);
  if (rel === null) return sendText(ctx, 400, 'Invalid directory');
  const folder = userFolderOf(ctx.state);
  if (!folder.isDir(rel)) return sendText(ctx, 404, 'Directory not found');
  const recurse = (ctx.url.searchParams.get('recurse') ?? '').toLowerCase() === 'true';
  sendJson(ctx, 200, folder.list(rel, recurse).map(({ rel: path, file }) => ({ path, size: file.bytes.length, modified: file.modified })));
}

async function getUserFile(ctx: RequestContext, routed: string): Promise<void> {
  const rel = pathOf(ctx, routed);
  if (rel === null) return;
  const file = userFolderOf(ctx.state).files.get(rel);
  if (!file) return sendText(ctx, 404, 'File not found');
  ctx.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length });
  ctx.res.end(file.bytes);
}

async function postUserFile(ctx: RequestContext, routed: string): Promise<void> {
  const rel = pathOf(ctx, routed);
  if (rel === null) return;
  const body = await readBody(ctx);
  if (rel === '' || rel.split('/').some((part) => Buffer.byteLength(part) > 255 || part.includes('\0'))) return sendText(ctx, 400, 'Invalid file name');
  const folder = userFolderOf(ctx.state);
  if (folder.files.has(rel) && ctx.url.searchParams.get('overwrite') === 'false') return sendText(ctx, 409, 'File already exists');
  const file = folder.write(rel, body, epochSeconds(Date.now()));
  const full = ctx.url.searchParams.get('full_info') === 'true';
  // UserDataResponseFull: `modified` as a date-time here (the list's is a number).
  sendJson(ctx, 200, full ? { path: rel, size: file.bytes.length, modified: new Date(file.modified * 1000).toISOString() } : rel);
}

async function deleteUserFile(ctx: RequestContext, routed: string): Promise<void> {
  const rel = pathOf(ctx, routed);
  if (rel === null) return;
  if (!userFolderOf(ctx.state).files.delete(rel)) return sendText(ctx, 404, 'File not found');
  ctx.res.writeHead(204);
  ctx.res.end();
}

/** UserResponse: the account's status (`active` or `waitlisted`). */
async function user(ctx: RequestContext): Promise<void> {
  sendJson(ctx, 200, { status: 'active' });
}

async function workflowTemplates(ctx: RequestContext): Promise<void> {
  sendJson(ctx, 200, {});
}

export const CLOUD_USERDATA_ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/userdata$/, run: listUserData },
  { method: 'GET', pattern: /^\/api\/userdata\/([^/]+)$/, run: getUserFile },
  { method: 'POST', pattern: /^\/api\/userdata\/([^/]+)$/, run: postUserFile },
  { method: 'DELETE', pattern: /^\/api\/userdata\/([^/]+)$/, run: deleteUserFile },
  { method: 'GET', pattern: /^\/api\/user$/, run: user },
  { method: 'GET', pattern: /^\/api\/workflow_templates$/, run: workflowTemplates },
];
