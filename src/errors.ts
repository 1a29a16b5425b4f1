// One error type for everything a command can fail with, and the one mapping from it to the
// exit-code table (README.md "Exit codes", and `wes help exit-codes`).

export const ExitCode = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  FAILED: 3,
  AUTH: 4,
  NOT_FOUND: 5,
  REFUSED: 6,
  THROTTLED: 7,
  TIMEOUT: 8,
  CREDITS: 9,
  CANCELED: 10,
  IN_DOUBT: 11,
  INTERRUPTED: 130,
  READER_GONE: 141,
  TERMINATED: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_TABLE: ReadonlyArray<readonly [number, string]> = [
  [0, 'success (for watch/--wait: the job succeeded)'],
  [1, 'other error: network, 5xx after retries, unreadable response, integrity check failed, an output that cannot be written (> /dev/full)'],
  [2, 'usage: bad flag or argument, unreadable or malformed local file, invalid model id, an Idempotency-Key that is not 1-255 printable ASCII'],
  [3, 'the job or model run failed (failed, expired; v1 error, non_retryable_error, lost; router provider_error, content_policy_violation)'],
  [4, 'authentication or permission (401, 403, not_enabled)'],
  [5, 'not found (404, 410, model_not_found: an unknown model, shown with the router\'s suggestions, blob_not_found, job_not_found, asset_not_found, request_not_found; no model router at the router URL)'],
  [6, 'the server refused the request (400, 409, 422: invalid_workflow, workflow_format_ui, invalid_input, deployment_stopped, ...)'],
  [7, 'throttled or no capacity after retries (429, 503, queue_backlog_full)'],
  [8, 'timed out (--timeout reached, 504 after retries, queue_timeout; models result before the result is ready)'],
  [9, 'insufficient credits (402, insufficient_credits)'],
  [10, 'the job was canceled (v1 cancelled; a queued model request cancelled)'],
  [11, 'in doubt: a submit got no usable answer and may have made a job; nothing was sent again (find it with wes jobs find --key KEY)'],
  [130, 'interrupted with Ctrl-C (the job keeps running unless --cancel-on-interrupt)'],
  [141, 'the reader of the output went away (`| head`): stopped quietly, as a command stopped by SIGPIPE'],
  [143, 'terminated (SIGTERM): handled like Ctrl-C, resumable state kept'],
];

import type { ApiFamily } from './protocol/api-families.js';

export { API_FAMILIES, type ApiFamily } from './protocol/api-families.js';
/** Where an error answer came from: one of the API families, or a signed storage URL outside them. */
export type ErrorOrigin = ApiFamily | 'signed';

export interface WesErrorFields {
  exitCode: number;
  code: string;
  hint?: string;
  status?: number;
  requestId?: string;
  details?: unknown;
  origin?: ErrorOrigin;
  cause?: unknown;
}

export class WesError extends Error {
  readonly exitCode: number;
  readonly code: string;
  hint?: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly details?: unknown;
  readonly origin?: ErrorOrigin;

  constructor(message: string, fields: WesErrorFields) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.exitCode = fields.exitCode;
    this.code = fields.code;
    this.hint = fields.hint;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.details = fields.details;
    this.origin = fields.origin;
  }
}

export class UsageError extends WesError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.USAGE, code: 'usage', hint });
  }
}

/** An HTTP error answer from one of the API families (or a signed URL), decoded. */
export class ApiError extends WesError {
  readonly headers: Record<string, string>;
  readonly retryAfterSeconds?: number;
  /** The error answer's body as received (`wes api` prints it). */
  readonly body?: Buffer;
  /** The path of the request that was answered (hints tell an asset upload from a submit by it). */
  readonly path?: string;
  constructor(
    message: string,
    fields: Omit<WesErrorFields, 'exitCode'> & {
      status: number;
      origin: ErrorOrigin;
      headers?: Record<string, string>;
      retryAfterSeconds?: number;
      body?: Buffer;
      path?: string;
    },
  ) {
    super(message, { ...fields, exitCode: exitCodeForApi(fields.status, fields.code) });
    this.headers = fields.headers ?? {};
    this.retryAfterSeconds = fields.retryAfterSeconds;
    this.body = fields.body;
    this.path = fields.path;
  }
}

/** Every way to give wes an API key, for hints where none was given. */
export const HOW_TO_GIVE_A_KEY = 'log in with `wes auth login`, or give one with WES_API_KEY=KEY or --api-key KEY';

export const READ_TIMEOUT_HINT = 'reads are retried automatically (--retries); on a slow network raise --read-timeout (WES_READ_TIMEOUT)';

export class NetworkError extends WesError {
  constructor(message: string, hint?: string, cause?: unknown) {
    super(message, { exitCode: ExitCode.ERROR, code: 'network_error', hint, cause });
  }
}

export class TimeoutError extends WesError {
  constructor(message = 'timed out: the --timeout deadline passed') {
    super(message, { exitCode: ExitCode.TIMEOUT, code: 'timeout', hint: 'raise --timeout, or drop it to wait as long as it takes' });
  }
}

/**
 * A single-use POST (a job submit) that got no usable answer (lost, a read timeout, a 5xx) and
 * whose job could not be found: it may have made one. Never sent again, since its key is spent
 * and a new key could make a second job; `details.idempotency_key` names the key to look with.
 */
export class InDoubtError extends WesError {
  constructor(message: string, fields: { key: string; hint: string; cause: unknown; details?: Record<string, unknown> }) {
    const cause = fields.cause instanceof WesError ? fields.cause : undefined;
    super(message, {
      exitCode: ExitCode.IN_DOUBT,
      code: 'in_doubt',
      hint: fields.hint,
      status: cause?.status,
      requestId: cause?.requestId,
      origin: cause?.origin,
      details: { idempotency_key: fields.key, ...fields.details },
      cause: fields.cause,
    });
  }
}


/** Why a command stopped before its end, though nothing failed. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGPIPE' | 'OUTPUT_FAILED';

const STOPS: Record<StopSignal, { message: string; exitCode: number; code: string }> = {
  SIGINT: { message: 'interrupted', exitCode: ExitCode.INTERRUPTED, code: 'interrupted' },
  SIGTERM: { message: 'terminated (SIGTERM)', exitCode: ExitCode.TERMINATED, code: 'terminated' },
  // `wes ... | head`: the reader took what it wanted (program.ts turns the closed pipe, seen by runtime/output-streams.ts, into this).
  SIGPIPE: { message: 'stopped: the reader of the output went away', exitCode: ExitCode.READER_GONE, code: 'reader_gone' },
  // `wes ... > /dev/full`, a full disk, an I/O error: what the user asked for is lost, a failure.
  OUTPUT_FAILED: { message: 'stopped: the output cannot be written', exitCode: ExitCode.ERROR, code: 'output_failed' },
};

/**
 * Ctrl-C (SIGINT, exit 130), SIGTERM (exit 143) or a reader that went away (exit 141): the same
 * orderly stop, told apart by the exit code, and said in one form everywhere (render/error.ts):
 * what stopped, what keeps going without wes, and the command that goes on from here. The command
 * that knows those tells them (`tell`) and throws the error on.
 */
export class InterruptedError extends WesError {
  /** What goes on without wes ("job X keeps running on the service"), said with the stop. */
  goesOn?: string;
  /** The command that picks up where this one stopped. */
  resume?: string;
  /** For --json: what a script needs to go on (`idempotency_key`), beside `resume`. */
  facts?: Record<string, unknown>;
  /** Words for a person after the resume command (never part of `resume`: a script runs that as it is). */
  aside?: string;

  /** `detail`: what the system said (an output's failure: `ENOSPC: no space left on device, write`). */
  constructor(
    readonly signal: StopSignal = 'SIGINT',
    detail?: string,
  ) {
    super(detail ? `${STOPS[signal].message} (${detail})` : STOPS[signal].message, { exitCode: STOPS[signal].exitCode, code: STOPS[signal].code });
  }

  /** Says what keeps going and how to go on; returns the error, to be thrown on. */
  tell(goesOn: string | undefined, resume?: string, facts?: Record<string, unknown>, aside?: string): this {
    this.goesOn = goesOn;
    this.resume = resume;
    this.facts = facts;
    this.aside = aside;
    return this;
  }

  /** The stop in one line: what stopped, and what goes on without wes. */
  get said(): string {
    return this.goesOn ? `${this.message}: ${this.goesOn}` : this.message;
  }
}

const CODE_EXITS: Record<string, number> = {
  insufficient_credits: ExitCode.CREDITS,
  unauthorized: ExitCode.AUTH,
  forbidden: ExitCode.AUTH,
  not_enabled: ExitCode.AUTH,
  not_found: ExitCode.NOT_FOUND,
  model_not_found: ExitCode.NOT_FOUND,
  blob_not_found: ExitCode.NOT_FOUND,
  // Comfy Cloud's not-found codes name the entity.
  job_not_found: ExitCode.NOT_FOUND,
  asset_not_found: ExitCode.NOT_FOUND,
  provider_error: ExitCode.FAILED,
  content_policy_violation: ExitCode.FAILED,
  invalid_input: ExitCode.REFUSED,
  invalid_workflow: ExitCode.REFUSED,
  workflow_format_ui: ExitCode.REFUSED,
  missing_asset: ExitCode.REFUSED,
  hash_mismatch: ExitCode.REFUSED,
  idempotency_key_reuse: ExitCode.REFUSED,
  invalid_request: ExitCode.REFUSED,
  deployment_stopped: ExitCode.REFUSED,
  content_blocked: ExitCode.REFUSED,
  rate_limited: ExitCode.THROTTLED,
  queue_full: ExitCode.THROTTLED,
  concurrency_limit_exceeded: ExitCode.THROTTLED,
  service_unavailable: ExitCode.THROTTLED,
  deployment_not_ready: ExitCode.THROTTLED,
  deployment_unavailable: ExitCode.THROTTLED,
  subscription_inactive: ExitCode.THROTTLED,
  internal_error: ExitCode.ERROR,
  upstream_error: ExitCode.ERROR,
  deadline_exceeded: ExitCode.TIMEOUT,
  provider_timeout: ExitCode.TIMEOUT,
  // The published router's queued delivery.
  cancelled: ExitCode.CANCELED,
  queue_timeout: ExitCode.TIMEOUT,
  request_not_found: ExitCode.NOT_FOUND,
  queue_backlog_full: ExitCode.THROTTLED,
  // A web server that is no job API at the base URL: a wrong URL, as one that does not speak TLS.
  not_job_api: ExitCode.ERROR,
};

/** Code first (it is the machine-readable part), then the HTTP status. */
export function exitCodeForApi(status: number, code: string | undefined): number {
  const byCode = code === undefined ? undefined : CODE_EXITS[code];
  if (byCode !== undefined) return byCode;
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 402) return ExitCode.CREDITS;
  if (status === 404 || status === 410) return ExitCode.NOT_FOUND;
  if (status === 429 || status === 503) return ExitCode.THROTTLED;
  if (status === 504) return ExitCode.TIMEOUT;
  if (status >= 400 && status < 500) return ExitCode.REFUSED;
  return ExitCode.ERROR;
}

/** Network failures where the request never reached the server (nothing can have happened there). */
export function neverReachedServer(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

/**
 * A TLS handshake that failed (an http: server asked for https:, a certificate not trusted): the
 * request was never written, so nothing can have happened on the server (network-error.ts).
 */
export const HANDSHAKE_FAILURES: ReadonlySet<string> = new Set(['not_tls', 'tls_untrusted']);

/** Normalises anything thrown into a WesError. */
export function toWesError(err: unknown): WesError {
  if (err instanceof WesError) return err;
  const e = err as { name?: string; code?: string; message?: string };
  if (e?.name === 'AbortError') return new InterruptedError();
  // A streamed body (a download, an event stream) that stalled or broke after its headers.
  if (e?.code === 'UND_ERR_BODY_TIMEOUT') return new NetworkError('the server stopped sending mid-response (read timeout)', READ_TIMEOUT_HINT, err);
  if (e?.code === 'UND_ERR_SOCKET' || e?.code === 'ECONNRESET') return new NetworkError(`the connection broke mid-response (${e.code})`, 'run the same command again', err);
  return new WesError(e?.message ?? String(err), { exitCode: ExitCode.ERROR, code: e?.code ?? 'error', cause: err });
}
