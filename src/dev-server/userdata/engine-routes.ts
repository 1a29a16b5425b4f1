// The user-data routes (saved workflows) of a ComfyUI engine, as 0.3.18 and 0.3.64 answered them
// (recordings/engine-userdata.json): `{file}` is one path segment decoded twice when a `%` is
// left, only `overwrite=false` refuses a replace, the file routes' refusals have empty bodies,
// every file route creates the parent folder of the path it is given (a GET too), a name that
// climbs out is 403 (a move's destination: 500), a folder cannot be deleted (500).
import type { RequestContext } from '../contract.js';
import type { Route } from '../route-table.js';
import { readBody } from '../http-kit.js';
import { sendBareStatus, sendPythonJson, sendServerTrouble, sendStaticRefusal, sendText, sendUserFile } from './answers.js';
import { engineName, epochSeconds, resolveUserPath, userFolderOf, type UserFile } from './store.js';

interface UserDataTraits {
  /** full_info answers carry `created` (0.3.64). */
  created: boolean;
  /** A name the file system refuses (over 255 bytes): 0.3.64 says so with a 400 and an empty body, 0.3.18 fails with a 500. */
  refusesLongNames: boolean;
}

const TRAITS: Record<string, UserDataTraits> = {
  '0.3.18': { created: false, refusesLongNames: false },
  '0.3.64': { created: true, refusesLongNames: true },
};

const LONG_NAME_REASON = 'Invalid filename. Please avoid special characters like :\\/*?"<>|';

function traits(ctx: RequestContext): UserDataTraits {
  return TRAITS[ctx.state.options.engineVersion] ?? TRAITS['0.3.64']!;
}

function flag(ctx: RequestContext, name: string): boolean {
  return (ctx.url.searchParams.get(name) ?? '').toLowerCase() === 'true';
}

function info(ctx: RequestContext, path: string, file: UserFile): Record<string, unknown> {
  return { path, size: file.bytes.length, modified: file.modified, ...(traits(ctx).created ? { created: file.created } : {}) };
}

/** The path of a routed `{file}`, its parent created; null after answering a name that climbs out. */
function target(ctx: RequestContext, routed: string): string | null {
  const rel = resolveUserPath(engineName(routed));
  if (rel === null) {
    sendBareStatus(ctx, 403);
    return null;
  }
  userFolderOf(ctx.state).makeParent(rel);
  return rel;
}

function tooLong(rel: string): boolean {
  return rel.split('/').some((part) => Buffer.byteLength(part) > 255);
}

async function listUserData(ctx: RequestContext): Promise<void> {
  const dir = ctx.url.searchParams.get('dir');
  if (!dir) return sendText(ctx, 400, 'Directory not provided');
  const rel = resolveUserPath(dir);
  if (rel === null) return sendText(ctx, 403, 'Invalid directory');
  const folder = userFolderOf(ctx.state);
  folder.makeParent(rel);
  if (!folder.isDir(rel)) return folder.files.has(rel) ? sendPythonJson(ctx, 200, []) : sendText(ctx, 404, 'Directory not found');
  const found = folder.list(rel, flag(ctx, 'recurse'));
  if (flag(ctx, 'full_info')) return sendPythonJson(ctx, 200, found.map(({ rel: path, file }) => info(ctx, path, file)));
  if (flag(ctx, 'split')) return sendPythonJson(ctx, 200, found.map(({ rel: path }) => [path, ...path.split('/')]));
  sendPythonJson(ctx, 200, found.map(({ rel: path }) => path));
}

async function getUserFile(ctx: RequestContext, routed: string): Promise<void> {
  const rel = target(ctx, routed);
  if (rel === null) return;
  const folder = userFolderOf(ctx.state);
  if (folder.isDir(rel)) return sendStaticRefusal(ctx, 403);
  const file = folder.files.get(rel);
  if (!file) return sendBareStatus(ctx, 404);
  sendUserFile(ctx, rel, file);
}

async function postUserFile(ctx: RequestContext, routed: string): Promise<void> {
  const rel = target(ctx, routed);
  if (rel === null) return;
  const body = await readBody(ctx);
  if (rel.includes('\0')) return sendServerTrouble(ctx);
  if (tooLong(rel)) return traits(ctx).refusesLongNames ? sendBareStatus(ctx, 400, LONG_NAME_REASON) : sendServerTrouble(ctx);
  const folder = userFolderOf(ctx.state);
  if (folder.isDir(rel)) return sendServerTrouble(ctx);
  if (folder.files.has(rel) && ctx.url.searchParams.get('overwrite') === 'false') return sendText(ctx, 409, 'File already exists');
  const file = folder.write(rel, body, epochSeconds(Date.now()));
  sendPythonJson(ctx, 200, flag(ctx, 'full_info') ? info(ctx, rel, file) : rel);
}

async function deleteUserFile(ctx: RequestContext, routed: string): Promise<void> {
  const rel = target(ctx, routed);
  if (rel === null) return;
  const folder = userFolderOf(ctx.state);
  if (folder.isDir(rel)) return sendServerTrouble(ctx);
  if (!folder.files.delete(rel)) return sendBareStatus(ctx, 404);
  sendBareStatus(ctx, 204);
}

async function moveUserFile(ctx: RequestContext, routedFrom: string, routedTo: string): Promise<void> {
  const from = target(ctx, routedFrom);
  if (from === null) return;
  const folder = userFolderOf(ctx.state);
  const file = folder.files.get(from);
  if (!file) return sendBareStatus(ctx, 404);
  const to = resolveUserPath(engineName(routedTo));
  if (to === null || folder.isDir(to)) return sendServerTrouble(ctx);
  folder.makeParent(to);
  if (folder.files.has(to) && ctx.url.searchParams.get('overwrite') === 'false') return sendText(ctx, 409, 'File already exists');
  folder.files.delete(from);
  folder.files.set(to, { ...file, created: epochSeconds(Date.now()) });
  sendPythonJson(ctx, 200, flag(ctx, 'full_info') ? info(ctx, to, folder.files.get(to)!) : to);
}

async function users(ctx: RequestContext): Promise<void> {
  sendPythonJson(ctx, 200, { storage: 'server', migrated: true });
}

async function settings(ctx: RequestContext): Promise<void> {
  sendPythonJson(ctx, 200, {});
}

async function setting(ctx: RequestContext): Promise<void> {
  sendPythonJson(ctx, 200, null);
}

/** The example workflows of the custom node packs: this engine has none (ComfyUI's server answers `{}` then). */
async function workflowTemplates(ctx: RequestContext): Promise<void> {
  sendPythonJson(ctx, 200, {});
}

/** Served bare and under /api/ like every engine route (the dispatcher maps the bare path). */
export const ENGINE_USERDATA_ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/userdata$/, run: listUserData },
  { method: 'GET', pattern: /^\/api\/userdata\/([^/]+)$/, run: getUserFile },
  { method: 'POST', pattern: /^\/api\/userdata\/([^/]+)$/, run: postUserFile },
  { method: 'DELETE', pattern: /^\/api\/userdata\/([^/]+)$/, run: deleteUserFile },
  { method: 'POST', pattern: /^\/api\/userdata\/([^/]+)\/move\/([^/]+)$/, run: moveUserFile },
  { method: 'GET', pattern: /^\/api\/users$/, run: users },
  { method: 'GET', pattern: /^\/api\/settings$/, run: settings },
  { method: 'GET', pattern: /^\/api\/settings\/([^/]+)$/, run: setting },
  { method: 'GET', pattern: /^\/api\/workflow_templates$/, run: workflowTemplates },
];
