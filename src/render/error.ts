// One place that turns any failure into what the user sees on stderr: a readable message with a
// hint, the request id, and the details tables (node errors, validation rows, spend figures);
// with --json, the error object instead (README.md, "Output, JSON and scripting").
import type { IOStreams } from './io.js';
import { ApiError, HOW_TO_GIVE_A_KEY, InterruptedError, toWesError, type WesError } from '../errors.js';
import { sanitize, sanitizeLine } from '../util/sanitize.js';
import { toSafeJson } from '../util/safe-json.js';
import { renderTable } from './table.js';
import { keyReuseHint } from '../key-rules.js';
import { bounded, CELL_LIMIT } from './bounded.js';

interface ValidationRow { loc?: unknown[]; msg?: string; type?: string; ctx?: unknown }

export function formatLoc(loc: unknown[] | undefined): string {
  if (!loc) return '';
  let out = '';
  for (const part of loc) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** The columns of a node-errors table, for every shape nodeErrorRows reads. */
export const NODE_ERROR_HEADERS = ['node', 'class', 'type', 'message', 'details'];

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/**
 * One row per problem of `node_errors`, whichever shape a node's entry has on the wire: the
 * engine's `{class_type, errors: [{type, message, details}]}`, the published contract's list of
 * `{field, reason}` (the reason is the type, the field the details, as the engine's details name
 * the input), a bare message, or a list of them. Anything else reads as an empty row for its node.
 */
export function nodeErrorRows(nodeErrors: unknown): string[][] {
  if (nodeErrors === null || typeof nodeErrors !== 'object' || Array.isArray(nodeErrors)) return [];
  const rows: string[][] = [];
  const row = (node: string, cells: unknown[]) => rows.push([node, ...cells.map(text)].map((cell) => bounded(cell, CELL_LIMIT)));
  const problem = (node: string, classType: unknown, p: unknown) => {
    if (typeof p !== 'object' || p === null) return row(node, [classType, '', p, '']);
    const r = p as Record<string, unknown>;
    if ('field' in r || 'reason' in r) return row(node, [classType, r.reason, r.message, r.field]);
    return row(node, [classType, r.type, r.message, r.details]);
  };
  for (const [node, entry] of Object.entries(nodeErrors)) {
    if (Array.isArray(entry)) {
      if (entry.length === 0) row(node, ['', '', '', '']);
      for (const p of entry) problem(node, '', p);
      continue;
    }
    const e = (entry ?? {}) as Record<string, unknown>;
    if (typeof entry === 'string' || !Array.isArray(e.errors) || e.errors.length === 0) problem(node, e.class_type, typeof entry === 'string' ? entry : {});
    else for (const p of e.errors) problem(node, e.class_type, p);
  }
  return rows;
}

function hasNodeErrors(err: WesError): boolean {
  return nodeErrorRows(detailsOf(err)?.node_errors).length > 0;
}

/**
 * The node-errors table (headed: people read it), or '' when there is no row. The node id and
 * the error type are codes, kept whole; the class, message and details wrap.
 */
export function renderNodeErrors(io: IOStreams, nodeErrors: unknown, stream: 'stdout' | 'stderr'): string {
  const rows = nodeErrorRows(nodeErrors);
  return rows.length ? renderTable(io, NODE_ERROR_HEADERS, rows, stream, { keep: [0, 2], wrap: [1, 3, 4] }) : '';
}

function detailsOf(err: WesError): Record<string, unknown> | undefined {
  const d = err.details;
  return d !== null && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : undefined;
}

export function cents(n: number): string {
  return Number.isFinite(n) ? `${n} cents ($${(n / 100).toFixed(2)})` : 'unknown';
}

export function renderError(io: IOStreams, thrown: unknown): number {
  const err = toWesError(thrown);
  if (err instanceof InterruptedError) return renderStop(io, err);
  if (io.jsonErrors) {
    io.stderr.write(
      toSafeJson({
        error: {
          code: err.code,
          message: err.message,
          status: err.status ?? null,
          request_id: err.requestId ?? null,
          details: err.details ?? null,
        },
      }) + '\n',
    );
    return err.exitCode;
  }
  const s = io.errStyle;
  io.warn(`${s.red('error:')} ${sanitize(bounded(err.message))}`);
  const details = detailsOf(err);
  const nodeErrors = renderNodeErrors(io, details?.node_errors, 'stderr');
  if (nodeErrors) io.warn(nodeErrors);
  const unknownClasses = details?.unknown_node_classes;
  if (Array.isArray(unknownClasses) && unknownClasses.length) io.warn(`unknown node classes: ${bounded(unknownClasses.map((c) => sanitizeLine(String(c))).join(', '))}`);
  const validation = details?.validation as ValidationRow[] | undefined;
  if (Array.isArray(validation) && validation.length) {
    io.warn(
      renderTable(
        io,
        ['field', 'problem', 'type', 'bound'],
        validation.map((v) => [formatLoc(v.loc), v.msg ?? '', v.type ?? '', v.ctx === undefined ? '' : JSON.stringify(v.ctx)].map((cell) => bounded(cell, CELL_LIMIT))),
        'stderr',
      ),
    );
  }
  const spend = details?.committed_spend as { limit_cents: number; current_cents: number; remaining_cents: number } | undefined;
  if (spend) io.warn(`committed spend: limit ${cents(spend.limit_cents)}, in flight ${cents(spend.current_cents)}, remaining ${cents(spend.remaining_cents)}`);
  if (typeof details?.declared_error_type === 'string') io.warn(`(the router sent an unknown error type ${sanitizeLine(details.declared_error_type)}; handled as internal_error)`);
  const meta: string[] = [];
  if (err.code && err.code !== 'usage' && err.code !== 'error') meta.push(`code ${sanitizeLine(err.code)}`);
  if (err.status) meta.push(`HTTP ${err.status}`);
  if (err.requestId) meta.push(`request id ${sanitizeLine(err.requestId)}`);
  if (meta.length) io.warn(s.dim(`  (${meta.join(', ')})`));
  const hint = err.hint ?? hintFor(err);
  // Hints may quote server text (class names, ids): sanitized like everything else.
  if (hint) io.warn(`${s.yellow('hint:')} ${sanitize(bounded(hint))}`);
  return err.exitCode;
}

/**
 * A stop that is no failure (Ctrl-C, SIGTERM, a reader gone): one form everywhere, not an error
 * line. With --json the error object carries it (`details.resume`). A reader that went away with
 * nothing left going is not told anything: it has stopped reading.
 */
function renderStop(io: IOStreams, err: InterruptedError): number {
  if (err.signal === 'SIGPIPE' && !err.goesOn) return err.exitCode;
  if (io.jsonErrors) {
    io.stderr.write(toSafeJson({ error: { code: err.code, message: err.said, status: null, request_id: null, details: err.resume || err.facts ? { ...err.facts, ...(err.resume ? { resume: err.resume } : {}) } : null } }) + '\n');
    return err.exitCode;
  }
  io.notice(sanitize(err.said));
  if (err.resume) io.notice(`resume with: ${sanitize(err.resume)}${err.aside ? `    ${sanitize(err.aside)}` : ''}`);
  return err.exitCode;
}

/** An API path that appears twice: the base URL already carried it (`…/api/v2` as base URL). */
const DOUBLED_API_PATH = /(\/api\/v2|\/v1\/models|\/v2\/models|\/api)(?:\/.*)?\1(\/|$)/;

/** Hints for codes of every API family, where one helps. */
/** The Idempotency-Key an error's details name, if any. */
function keyOf(details: unknown): string | undefined {
  const key = (details as { idempotency_key?: unknown } | null | undefined)?.idempotency_key;
  return typeof key === 'string' ? key : undefined;
}

export function hintFor(err: WesError): string | undefined {
  const path = err instanceof ApiError ? err.path : undefined;
  if (path && (err.status === 404 || err.status === 405) && DOUBLED_API_PATH.test(path)) {
    return `check the base URL: the request went to ${path}, so the base URL seems to end in an API path already; give the service's root (e.g. https://api.example.com, or …/deployment/ID for serverless), not …/api/v2`;
  }
  if (err.status === 410 && err.origin === 'models') return 'the request aged out of the router\'s retention window: its result is gone; run the model again';
  if (err.status === 413) {
    if (err.origin === 'models') return 'the input is over the router\'s request size limit; pass large files by URL (an https link the provider can fetch) instead of inline data';
    return path?.includes('/assets')
      ? 'the file is over the service\'s upload size limit'
      : 'the request body is over the service\'s size limit; keep large data out of the workflow: upload it as an asset (`--set NODE.INPUT=@FILE`) and refer to it by id';
  }
  switch (err.code) {
    case 'unauthorized':
      return `check the API key with \`wes auth status\`; to use another, ${HOW_TO_GIVE_A_KEY}`;
    case 'forbidden':
      return 'the credential is valid but not allowed to do this; check the profile with `wes auth status`';
    case 'not_enabled':
      return 'the model router is not switched on for this account yet; this is not an outage, retrying will not help';
    case 'insufficient_credits':
      return 'add credits to the workspace, then run the command again';
    case 'rate_limited':
    case 'queue_full':
    case 'concurrency_limit_exceeded':
    case 'service_unavailable':
      return 'the service is busy; wes already retried. Try later, or raise --retries';
    case 'deployment_not_ready':
      return 'the deployment is starting; wes retried automatically. Try again shortly';
    case 'deployment_unavailable':
      return 'the deployment is ready but its GPU provider is not taking work yet; try again shortly';
    case 'deployment_stopped':
      return 'the deployment is stopped; an operator has to start it again';
    case 'content_blocked':
      return 'moderation flagged the uploaded content; it will not be accepted as is';
    case 'workflow_format_ui':
      return 'export the workflow in API format (the "Export (API)" menu item), not the UI save format';
    case 'idempotency_key_reuse':
      // The router keeps a key's result for the same request; the job API refuses a key it has seen, whatever the body.
      if (err.origin === 'models') return 'the router holds this Idempotency-Key for a different request; run it again under a new key';
      return keyReuseHint(keyOf(err.details));
    case 'missing_asset':
      return 'upload the file first (`wes assets upload FILE`, or `--set NODE.INPUT=@FILE`)';
    case 'hash_mismatch':
      return 'the file changed while uploading, or the expected hash is wrong; upload again';
    case 'model_not_found':
      return 'the router knows no such model (or the --provider named does not serve it); list runnable models with `wes models list --all`';
    case 'cancelled':
      return 'the queued request was cancelled before it produced a result; run the model again for a new one';
    case 'queue_timeout':
      return 'the request waited in the router\'s queue past its limit and never started (nothing was charged); submit it again';
    case 'request_not_found':
      return 'the router knows no such request for this model and credential (check both ids, and the profile); `wes models requests` lists those queued from here';
    case 'queue_backlog_full':
      return 'too many of your queued requests are waiting; nothing was queued or charged. Submit again once some of them finish (`wes models requests --refresh`)';
    case 'subscription_inactive':
      return 'running workflows on the v1 API needs an active subscription';
    case 'deadline_exceeded':
    case 'provider_timeout':
      return 'the model took too long; run again with the same --idempotency-key to collect the result';
    case 'invalid_workflow':
      return hasNodeErrors(err) ? 'fix the nodes named above and submit again' : undefined;
    case 'blob_not_found':
      return 'the service holds no file with that hash; upload it with `wes assets upload FILE`';
    case 'invalid_request':
      return err.origin === 'jobs' && path?.includes('/assets') ? 'the service refused the asset request as malformed; check the file and the --content-type / --name given' : undefined;
    case 'upstream_error':
      return 'a failure inside the service; reads were retried automatically. Try again later';
    case 'not_found':
    case 'job_not_found':
    case 'asset_not_found':
      if (err.origin !== 'jobs') return undefined;
      // No id in the path (a submit, a list, an upload): the collection itself is not at this base URL.
      if (path !== undefined && /\/api\/v2\/(jobs|assets)\/?(\?.*)?$/.test(path)) {
        return 'check the base URL: no job API answers there. A serverless deployment\'s ends in /deployment/ID (with {deployment} in it, --deployment fills it in); `wes doctor` says what answers there';
      }
      // An asset's own record (assets get, download, delete); a job output's content keeps the job's words.
      return path !== undefined && /\/api\/v2\/assets\/[^/]+$/.test(path)
        ? 'check the asset id: an asset is named by its whole id (as `wes assets upload` printed it), and a deleted one is gone'
        : 'check the id; a job and its outputs can be fetched only until the job\'s expires_at';
    case 'not_job_api':
      return 'check the base URL (--base-url, WES_BASE_URL or the profile\'s base_url): it must be the root of a job API v2 server; `wes doctor` says what answers there';
    case 'not_implemented':
      return err.origin === 'jobs' && path?.includes('/assets')
        ? 'this server keeps no uploaded files (the job API answered that it does not implement asset uploads); pass inputs another way, or use a server that stores assets'
        : 'this server does not implement that request (a feature of other deployments); nothing was done';
    case 'network_error':
      return undefined;
    default:
      return undefined;
  }
}
