// Turns an error answer of any API family into one ApiError: origin, status, code (or router
// error_type), message, request id and details (node errors, validation rows, spend figures).
import { ApiError, type ErrorOrigin } from '../errors.js';
import { sanitizeLine } from '../util/sanitize.js';
import { notJobApi } from './not-job-api.js';
import { parseRetryAfter } from './retry.js';
import { PUBLISHED_ROUTER_ERROR_TYPES, type CommittedSpend, type RouterValidationErrorDetail } from '../protocol/errors.js';
import { readMakerHeader } from '../protocol/maker-names.js';

export interface RawErrorResponse {
  origin: ErrorOrigin;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  url: URL;
  /** The request's method, where known (words of a server that is no job API name it). */
  method?: string;
  /** Whether the request carried a credential, where known (a 401 without a reason is worded by it). */
  credentialSent?: boolean;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request', 401: 'unauthorized', 402: 'payment required', 403: 'forbidden', 404: 'not found',
  409: 'conflict', 413: 'request too large', 415: 'unsupported media type', 422: 'unprocessable',
  429: 'too many requests', 451: 'unavailable for legal reasons', 500: 'internal server error',
  502: 'bad gateway', 503: 'service unavailable', 504: 'gateway timeout',
};

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fallbackMessage(status: number, body: Buffer): string {
  const text = sanitizeLine(body.toString('utf8', 0, Math.min(body.length, 300))).trim();
  const label = `HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}`;
  return text && !text.startsWith('<') ? `${label}: ${text}` : label;
}

function committedSpend(headers: Record<string, string>): CommittedSpend | undefined {
  const limit = headers['x-committed-spend-limit'];
  if (limit === undefined) return undefined;
  return {
    limit_cents: Number(limit),
    current_cents: Number(headers['x-committed-spend-current'] ?? NaN),
    remaining_cents: Number(headers['x-committed-spend-remaining'] ?? NaN),
  };
}

function decodeJobs(r: RawErrorResponse, json: unknown): { code: string; message: string; details?: unknown; hint?: string } {
  const err = isObject(json) && isObject(json.error) ? json.error : undefined;
  if (err && typeof err.code === 'string') {
    return {
      code: err.code,
      message: typeof err.message === 'string' ? err.message : fallbackMessage(r.status, r.body),
      details: err.details ?? undefined,
    };
  }
  return notJobApi(r) ?? (r.status === 401 ? bareUnauthorized(r) : { code: `http_${r.status}`, message: fallbackMessage(r.status, r.body) });
}

/**
 * A 401 without the error envelope (the answer to a HEAD, such as the upload's by-hash check, has
 * no body; a gateway may send none): still a credential problem, said as one so that its hint follows.
 */
function bareUnauthorized(r: RawErrorResponse): { code: string; message: string } {
  const what = r.credentialSent === false ? 'the service wants an API key and none was sent' : 'the service refused the API key';
  return { code: 'unauthorized', message: `${what} (${fallbackMessage(r.status, r.body)})` };
}

function decodeModels(r: RawErrorResponse, json: unknown): { code: string; message: string; details?: unknown } {
  const declared = readMakerHeader(r.headers, 'errorType') ?? (isObject(json) && typeof json.error_type === 'string' ? json.error_type : undefined);
  let code = declared && PUBLISHED_ROUTER_ERROR_TYPES.has(declared) ? declared : 'internal_error';
  if (!declared && r.status === 422) code = 'invalid_input';
  const details: Record<string, unknown> = {};
  if (declared && declared !== code) details.declared_error_type = declared;
  const spend = committedSpend(r.headers);
  if (spend) details.committed_spend = spend;
  let message: string;
  if (isObject(json) && Array.isArray(json.detail)) {
    const rows = json.detail as RouterValidationErrorDetail[];
    details.validation = rows;
    message = `the model rejected the input (${rows.length} problem${rows.length === 1 ? '' : 's'})`;
  } else if (isObject(json) && typeof json.detail === 'string') {
    message = json.detail;
  } else {
    message = fallbackMessage(r.status, r.body);
  }
  // The published router: the provider's own reason for refusing a request as malformed.
  const upstream = isObject(json) && typeof json.upstream_detail === 'string' ? json.upstream_detail : readMakerHeader(r.headers, 'upstreamDetail');
  if (upstream) {
    details.upstream_detail = upstream;
    message += ` (the provider said: ${sanitizeLine(upstream)})`;
  }
  // Which input or output a content-policy refusal names (an open string; absent: none named).
  if (code === 'content_policy_violation') {
    const subject = readMakerHeader(r.headers, 'refusalSubject') ?? (isObject(json) && typeof json.refusal_subject === 'string' ? json.refusal_subject : undefined);
    if (subject?.trim()) {
      details.refusal_subject = sanitizeLine(subject.trim());
      message += ` (refused: ${sanitizeLine(subject.trim())})`;
    }
  }
  const upstreamStatus = readMakerHeader(r.headers, 'upstreamStatus');
  if (upstreamStatus && /^\d{3}$/.test(upstreamStatus)) details.upstream_status = Number(upstreamStatus);
  return { code, message, details: Object.keys(details).length ? details : undefined };
}

const LEGACY_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  402: 'insufficient_credits',
  403: 'forbidden',
  404: 'not_found',
  429: 'subscription_inactive',
  500: 'internal_error',
};

/** v1 error types that say more than the status (a full queue is not an inactive subscription). */
const LEGACY_TYPES_KEPT = new Set(['queue_full', 'rate_limited', 'insufficient_credits']);

/** The error's declared type: the engine's `{error: {type}}`, or the published cloud's `{code, message}`. */
function declaredLegacyType(json: unknown): string | undefined {
  if (!isObject(json)) return undefined;
  if (isObject(json.error) && typeof json.error.type === 'string') return json.error.type;
  return typeof json.code === 'string' ? json.code : undefined;
}

function decodeLegacy(r: RawErrorResponse, json: unknown): { code: string; message: string; details?: unknown; hint?: string } {
  const declared = declaredLegacyType(json);
  const code = declared && LEGACY_TYPES_KEPT.has(declared) ? declared : (LEGACY_CODES[r.status] ?? `http_${r.status}`);
  let message = fallbackMessage(r.status, r.body);
  if (isObject(json)) {
    const err = json.error;
    if (typeof err === 'string') message = err;
    else if (isObject(err) && typeof err.message === 'string') message = err.message;
    else if (typeof json.message === 'string') message = json.message;
  }
  if (code === 'subscription_inactive') message = `subscription inactive: ${message}`;
  const hint = json === undefined && r.status === 404 && r.body.length > 0 ? PLAIN_404_HINT : undefined;
  return { code, message, details: isObject(json) ? json : undefined, hint };
}

/** A v1 404 in plain text is a web server's own page: the route does not exist there. */
const PLAIN_404_HINT =
  'the server has no such route (it answered in plain text, as a self-hosted ComfyUI engine does for the cloud-only routes); ' +
  'for your own ComfyUI use --engine self-hosted or --engine auto (WES_ENGINE), otherwise check the base URL';

function decodeSigned(r: RawErrorResponse): { code: string; message: string; details?: unknown } {
  if (r.status === 403) return { code: 'signed_url_rejected', message: 'the signed URL was refused (expired or altered)' };
  return { code: `http_${r.status}`, message: fallbackMessage(r.status, r.body) };
}

export function decodeError(r: RawErrorResponse): ApiError {
  const json = parseJson(r.body);
  const decoded: { code: string; message: string; details?: unknown; hint?: string } =
    r.origin === 'jobs' ? decodeJobs(r, json)
    : r.origin === 'models' ? decodeModels(r, json)
    : r.origin === 'legacy' ? decodeLegacy(r, json)
    : decodeSigned(r);
  const retryAfterMs = parseRetryAfter(r.headers['retry-after']);
  return new ApiError(decoded.message, {
    origin: r.origin,
    status: r.status,
    code: decoded.code,
    details: decoded.details,
    hint: decoded.hint,
    requestId: readMakerHeader(r.headers, 'requestId'),
    headers: r.headers,
    body: r.body,
    path: r.url.pathname,
    retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.round(retryAfterMs / 1000),
  });
}
