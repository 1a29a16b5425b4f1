// The one HTTP layer every command goes through (undici, keep-alive): credentials per family and
// only to configured origins, retries, --timeout and Ctrl-C through one AbortSignal, error
// decoding, redirects by hand, and --verbose request lines with secrets redacted.
import { Agent, nodeMaxHeaderSize, request as undiciRequest, type Dispatcher } from './undici-core.js';
import type { Readable } from 'node:stream';
import { ApiError, HOW_TO_GIVE_A_KEY, NetworkError, UsageError, WesError, ExitCode, type ApiFamily, type ErrorOrigin } from '../errors.js';
import { stringifyJsonExact } from '../util/exact-json.js';
import { slicedBody } from './body-progress.js';
import { decodeError } from './decode-error.js';
import { readMakerHeader } from '../protocol/maker-names.js';
import { credentialAt, type CredentialOrigins } from './credential-rule.js';
import { joinBase, resolveLink } from './links.js';
import { redactHeaders, redactUrl } from './redact.js';
import { DEFAULT_MAX_ANSWER_MIB, readBounded } from './answer-limit.js';
import { chunksOf, isChunkedBody, requestChunks, type ChunkedBody } from './chunked-body.js';
import { AnswerSinkError, fillSink, memorySink, type AnswerSink } from './answer-sink.js';
import { connectReusingBuffers } from './reused-read-socket.js';
import { systemClock, type Clock } from '../util/clock.js';
import { proxyFor, proxyRefusal, type ProxyRoute, type ProxySettings } from './proxy-env.js';
import { proxyDispatcher, tunnelConnection } from './proxy-dispatch.js';
import { CANNOT_HEAL, isProxyRefusal, isReadTimeout, networkError } from './network-error.js';
import {
  DEFAULT_RETRIES,
  RETRYABLE_STATUSES,
  backoffDelay,
  defaultResendPolicy,
  isConnectFailure,
  parseRetryAfter,
  retryAfterTooLong,
  retryAfterWait,
  RETRY_AFTER_MAX_MS,
  RETRY_BUDGET_MS,
  type ResendPolicy,
} from './retry.js';

export type { ApiFamily };

export interface HttpClientOptions {
  baseUrl: string;
  routerUrl: string;
  /** The legacy family's base URL (default: baseUrl): the engine behind a self-hosted job API server. */
  engineUrl?: string;
  /** Sent to the base URL's origin only: the job API, and the legacy family where the engine URL shares that origin. */
  apiKey?: string;
  /** Sent to the router URL's origin only. */
  routerToken?: string;
  /**
   * Sent to the engine URL's origin only, where it wins over the API key. An engine on an origin
   * of its own gets this or nothing: never the job API's key.
   */
  engineKey?: string;
  retries?: number;
  /**
   * --read-timeout: a response whose headers or body bytes make no progress this long is
   * abandoned and handled as a dropped connection (0: never). Default 30 s.
   */
  readTimeoutMs?: number;
  /** Aborted on Ctrl-C or when --timeout passes; its reason is the error to throw. */
  signal?: AbortSignal;
  /** --verbose sink (stderr); absent means quiet. */
  debug?: (line: string) => void;
  /** Told before each retry wait (for progress displays). */
  onRetry?: (info: RetryInfo) => void;
  userAgent?: string;
  /** Connections per origin (default 32): a batch following many jobs at once needs more. */
  connections?: number;
  /** Bytes of one answer held in memory at most (JSON, error bodies, WebSocket messages). */
  maxAnswerBytes?: number;
  /** HTTPS_PROXY, HTTP_PROXY and NO_PROXY, read (proxySettings); absent: every connection is direct. */
  proxy?: ProxySettings;
  /**
   * Certificates (PEM) of authorities to trust besides Node's bundled ones, for a server signed by
   * a private CA. The CLI has NODE_EXTRA_CA_CERTS for that, which Node reads only as it starts.
   */
  ca?: string[];
  /**
   * The undici Dispatcher every request goes through instead of the connections this client makes
   * (its agents and proxy dispatchers): the seam below HTTP, so that retries, in-doubt verdicts
   * and error decoding can be driven without sockets (tests replay recorded answers through
   * undici's MockAgent), as the maker's SDK takes a `fetch`. The caller owns it: close() leaves it
   * open. WebSockets (v1 events) do not go through it.
   */
  dispatcher?: Dispatcher;
  /** Reads the retry budget's time and waits between tries (default: the system's). */
  clock?: Clock;
}

export interface RetryInfo {
  /** The retry about to be made (1 = the second attempt). */
  attempt: number;
  /** Retries this call may make in all. */
  maxRetries: number;
  delayMs: number;
  reason: string;
  error?: ApiError;
  /** Why the last attempt failed: an HTTP status, or a connection that broke or stalled. */
  cause: 'status' | 'connect' | 'network' | 'read_timeout';
}

/** A body that can be produced again for a retry (streams cannot be replayed). */
export type BodySource = string | Buffer | Uint8Array | (() => Readable | AsyncIterable<Uint8Array> | Buffer | string);

export interface HttpRequest {
  family: ApiFamily;
  method?: string;
  /** A path ("/api/v2/jobs") appended to the family's base URL, or an absolute URL (a resolved link). */
  url: string | URL;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  json?: unknown;
  body?: BodySource;
  /** Told how many bytes of a `json`, string or Buffer body the connection has taken (from 0 on each attempt). */
  onBodyBytes?: (sent: number) => void;
  /** Sent as Idempotency-Key (the same key on every attempt the resend policy allows). */
  idempotencyKey?: string;
  /**
   * When a failure may be followed by the same request again (see ResendPolicy); default: reads
   * and idempotent methods replay, a keyed job API POST is single-use, a keyed router call
   * replays, any other POST is sent again only after a connect failure.
   */
  resend?: ResendPolicy;
  /** Statuses returned to the caller instead of thrown (e.g. 204, 302, 304). */
  accept?: number[];
  /** Overrides the retry count for this call (0: no retry). */
  retries?: number;
  /** A deadline for each attempt of this call (a probe must not hang on a stalled server). */
  timeoutMs?: number;
  /**
   * The server holds the answer while it works (a synchronous model run, bounded by the router's
   * own deadline): waiting for the headers is not a stall, so only the body has a read timeout.
   */
  holdsAnswer?: boolean;
  /**
   * The answer may run to megabytes (a model's output): over http: it is read through the
   * connections that read into reused 1 MiB buffers, each chunk copied once into the answer,
   * instead of 64 KiB reads each kept and joined.
   */
  largeAnswer?: boolean;
  /** With a sink (into()): answers of these statuses are read into memory instead (a queued result's 202 "not ready yet"). */
  notToSink?: number[];
  /** Sent even where a credential is required and none is configured: a probe asks what the server says to that. */
  probe?: boolean;
}

export interface HttpResponse<B> {
  status: number;
  headers: Record<string, string>;
  /** The URL that answered: host-relative links in the body resolve against its origin. */
  url: URL;
  requestId: string | undefined;
  body: B;
}

/** How a 2xx body is handed over: read whole, as a Readable, or as chunks taken synchronously (downloads). */
type Read = 'buffer' | 'stream' | 'chunks';
type Body<R extends Read> = R extends 'chunks' ? ChunkedBody : R extends 'stream' ? Readable : Buffer;

const MAX_SIGNED_REDIRECTS = 5;
export const DEFAULT_READ_TIMEOUT_MS = 30_000;
/** How long a proxy may take to open a WebSocket's tunnel (the handshake's own timeout follows). */
const PROXY_TUNNEL_TIMEOUT_MS = 10_000;
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'proxy-authorization']);

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export class HttpClient {
  private readonly agent: Agent;
  /** Connections for chunked downloads from http: origins, reading into reused buffers; made on first use. */
  private bulkAgent?: Agent;
  /** One dispatcher per proxy in use, made (and its module loaded) on the first request through it. */
  private readonly proxyAgents = new Map<string, Dispatcher>();
  private readonly opts: HttpClientOptions;
  private readonly baseOrigin: string;
  private readonly routerOrigin: string;
  private readonly credentials: CredentialOrigins;

  /** The time its retries read and wait on; the clients on this transport read theirs here too. */
  get clock(): Clock {
    return this.opts.clock ?? systemClock;
  }

  constructor(opts: HttpClientOptions) {
    this.opts = opts;
    this.baseOrigin = new URL(opts.baseUrl).origin;
    this.routerOrigin = new URL(opts.routerUrl).origin;
    this.credentials = {
      baseOrigin: this.baseOrigin,
      routerOrigin: this.routerOrigin,
      engineOrigin: new URL(opts.engineUrl ?? opts.baseUrl).origin,
      apiKey: opts.apiKey,
      routerToken: opts.routerToken,
      engineKey: opts.engineKey,
    };
    // undici's headers and body timeouts are "no progress" timers (the body one restarts with each chunk).
    this.agent = new Agent(this.agentOptions());
  }

  private agentOptions(): NonNullable<ConstructorParameters<typeof Agent>[0]> {
    return {
      keepAliveTimeout: 10_000,
      connections: this.opts.connections ?? 32,
      headersTimeout: this.readTimeoutMs,
      bodyTimeout: this.readTimeoutMs,
      maxHeaderSize: nodeMaxHeaderSize(),
      ...(this.opts.ca ? { connect: { ca: [...process.getBuiltinModule('node:tls').rootCertificates, ...this.opts.ca] } } : {}),
    };
  }

  /**
   * Where a request goes: to the injected dispatcher when one was given; else through the proxy
   * that serves its URL, if any; else a download taken as chunks from an http: origin goes to the
   * bulk agent (reused read buffers; TLS keeps undici's connector), and everything else to the
   * shared agent.
   */
  private dispatcherFor(url: URL, chunks: boolean): Dispatcher {
    if (this.opts.dispatcher) return this.opts.dispatcher;
    const route = proxyFor(this.opts.proxy, url);
    if (route) return this.proxyDispatcher(route);
    if (!chunks || url.protocol !== 'http:') return this.agent;
    return (this.bulkAgent ??= new Agent({ ...this.agentOptions(), connect: connectReusingBuffers }));
  }

  private proxyDispatcher(route: ProxyRoute): Dispatcher {
    let made = this.proxyAgents.get(route.url.href);
    if (!made) {
      made = proxyDispatcher(route, this.agentOptions());
      this.proxyAgents.set(route.url.href, made);
    }
    return made;
  }

  /**
   * The `createConnection` a WebSocket to `url` needs (ws passes it to node:http): a CONNECT tunnel
   * through the proxy that serves the URL; undefined for a direct connection.
   */
  webSocketConnection(url: URL): typeof import('node:net').createConnection | undefined {
    const route = proxyFor(this.opts.proxy, url);
    if (!route) return undefined;
    this.opts.debug?.(`* through proxy ${route.shown} (${route.from})`);
    const secure = url.protocol === 'wss:' || url.protocol === 'https:';
    const connect = tunnelConnection(route, secure, PROXY_TUNNEL_TIMEOUT_MS);
    // node:http calls a createConnection with its own callback and takes the socket from it when none is returned (ws types it as net's).
    return connect as unknown as typeof import('node:net').createConnection;
  }

  get signal(): AbortSignal | undefined {
    return this.opts.signal;
  }

  get readTimeoutMs(): number {
    return this.opts.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  }

  get retries(): number {
    return this.opts.retries ?? DEFAULT_RETRIES;
  }

  get maxAnswerBytes(): number {
    return this.opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_MIB * 1024 * 1024;
  }

  /** The configured base URL of a family (for display and for building the WebSocket URL). */
  baseUrlFor(family: ApiFamily): string {
    if (family === 'models') return this.opts.routerUrl;
    return family === 'legacy' ? (this.opts.engineUrl ?? this.opts.baseUrl) : this.opts.baseUrl;
  }

  /** Resolves a request target: API paths onto the family base, URLs as they are. */
  target(family: ApiFamily, url: string | URL, query?: HttpRequest['query']): URL {
    const u = url instanceof URL ? new URL(url) : /^https?:\/\//i.test(url) ? new URL(url) : joinBase(this.baseUrlFor(family), url);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u;
  }

  /** Resolves a link from a response body against that response's origin. */
  link(link: string, from: HttpResponse<unknown> | URL): URL {
    return resolveLink(link, from instanceof URL ? from : from.url);
  }

  /**
   * The credential for a family, only when the URL's origin (ws/wss counted as http/https, for
   * the v1 WebSocket token) is the configured origin of that family, and only the one configured
   * for that origin (credential-rule.ts). Any other host gets none.
   */
  credentialFor(family: ApiFamily, url: URL): string | undefined {
    return credentialAt(family, url.origin.replace(/^ws/, 'http'), this.credentials)?.value;
  }

  /** What a 401 to a request that carried no credential says: how to give one, for the origin that asked. */
  private noKeySentHint(family: ErrorOrigin, url: URL): string {
    if (family !== 'legacy' || url.origin === this.baseOrigin) return NO_KEY_SENT_HINT;
    return `no key was sent to the engine at ${url.origin}: the API key goes only to ${this.baseOrigin}; ${HOW_TO_GIVE_AN_ENGINE_KEY}`;
  }

  /** The credential header of a family: Bearer for jobs and models, X-API-Key for legacy. */
  credentialHeaders(family: ApiFamily, url: URL): Record<string, string> {
    const credential = this.credentialFor(family, url);
    if (!credential) return {};
    return family === 'legacy' ? { 'x-api-key': credential } : { authorization: `Bearer ${credential}` };
  }

  async buffer(req: HttpRequest): Promise<HttpResponse<Buffer>> {
    return this.send(req, 'buffer') as Promise<HttpResponse<Buffer>>;
  }

  /** buffer() whose answer (any below 400: what it hands back) goes to `sink` as it arrives instead of into memory (see AnswerSink); error answers as buffer(). */
  async into<T>(req: HttpRequest, sink: AnswerSink<T>): Promise<HttpResponse<T>> {
    return this.send(req, 'buffer', sink) as Promise<HttpResponse<T>>;
  }

  async json<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const res = await this.buffer({ ...req, headers: { accept: 'application/json', ...req.headers } });
    return { ...res, body: parseJsonBody<T>(res) };
  }

  async stream(req: HttpRequest): Promise<HttpResponse<Readable>> {
    return this.send(req, 'stream') as Promise<HttpResponse<Readable>>;
  }

  /**
   * GET of a signed URL: no Authorization, no X-API-Key, no cookies, on any hop. Redirects are
   * followed by hand and a downgrade from https to http is refused.
   */
  async signed(url: URL, extraHeaders: Record<string, string> = {}): Promise<HttpResponse<Readable>> {
    return this.followSigned(url, extraHeaders, 'stream');
  }

  /** signed() with the body as chunks (a download into a file: see ChunkedBody). */
  async signedChunks(url: URL, extraHeaders: Record<string, string> = {}): Promise<HttpResponse<ChunkedBody>> {
    return this.followSigned(url, extraHeaders, 'chunks');
  }

  private async followSigned<R extends 'stream' | 'chunks'>(url: URL, extraHeaders: Record<string, string>, read: R): Promise<HttpResponse<Body<R>>> {
    const headers = Object.fromEntries(Object.entries(extraHeaders).filter(([k]) => !CREDENTIAL_HEADERS.has(k.toLowerCase())));
    let current = url;
    for (let hop = 0; ; hop++) {
      const res = await this.attemptLoop(
        { method: 'GET', url: current, headers, origin: 'signed', resend: 'replay', accept: [301, 302, 303, 307, 308, 206] },
        read,
      );
      if (res.status < 300 || res.status >= 400) return res as HttpResponse<Body<R>>;
      if (hop >= MAX_SIGNED_REDIRECTS) throw new WesError('too many redirects from the signed URL', { exitCode: ExitCode.ERROR, code: 'redirect_loop' });
      current = this.redirectTarget(current, res.headers.location);
    }
  }

  /**
   * A request to a configured origin that answers with a redirect to a signed URL (v1 /api/view,
   * asset content): the first hop carries the credential, the signed hop none.
   */
  async redirectToSigned(req: HttpRequest, headers: Record<string, string> = {}): Promise<HttpResponse<Readable>> {
    return this.redirectToSignedAs(req, headers, 'stream');
  }

  /** redirectToSigned() with the body as chunks (a download into a file: see ChunkedBody). */
  async redirectToSignedChunks(req: HttpRequest, headers: Record<string, string> = {}): Promise<HttpResponse<ChunkedBody>> {
    return this.redirectToSignedAs(req, headers, 'chunks');
  }

  /**
   * A content link of the jobs family (an output's or an asset's `url`), as chunks. On the
   * configured job API origin (a self-hosted server that serves the bytes itself, behind a
   * token) the first hop carries the credential, and a redirect from it goes on without; any
   * other origin (signed storage) gets none on any hop.
   */
  async contentChunks(url: URL, headers: Record<string, string> = {}): Promise<HttpResponse<ChunkedBody>> {
    if (url.origin !== this.baseOrigin) return this.signedChunks(url, headers);
    return this.redirectToSignedChunks({ family: 'jobs', url }, headers);
  }

  private async redirectToSignedAs<R extends 'stream' | 'chunks'>(req: HttpRequest, headers: Record<string, string>, read: R): Promise<HttpResponse<Body<R>>> {
    // The extra headers (a Range) go on the first hop too: a server that serves the bytes itself answers it.
    const first = (await this.send({ ...req, headers: { ...req.headers, ...headers }, accept: [301, 302, 303, 307, 308] }, read)) as HttpResponse<Body<R>>;
    if (first.status < 300 || first.status >= 400) return first;
    return this.followSigned(this.redirectTarget(first.url, first.headers.location), headers, read);
  }

  private redirectTarget(from: URL, location: string | undefined): URL {
    if (!location) throw new WesError('the server answered a redirect without a Location', { exitCode: ExitCode.ERROR, code: 'bad_redirect' });
    const next = resolveLink(location, from);
    if (from.protocol === 'https:' && next.protocol === 'http:') {
      throw new WesError(`refusing a redirect from https to http (${next.origin})`, { exitCode: ExitCode.ERROR, code: 'insecure_redirect' });
    }
    return next;
  }

  private async send(req: HttpRequest, read: Read, sink?: AnswerSink<unknown>): Promise<HttpResponse<unknown>> {
    const method = (req.method ?? (req.json !== undefined || req.body !== undefined ? 'POST' : 'GET')).toUpperCase();
    const url = this.target(req.family, req.url, req.query);
    // The model router takes no request without a credential: said here rather than by its 401.
    if (req.family === 'models' && !req.probe && url.origin === this.routerOrigin && !this.opts.routerToken) throw noCredentialError('models');
    const headers: Record<string, string> = { 'user-agent': this.opts.userAgent ?? 'wes', ...req.headers, ...this.credentialHeaders(req.family, url) };
    if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
    let body = req.body;
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = stringifyJsonExact(req.json);
    }
    if (req.onBodyBytes && (typeof body === 'string' || body instanceof Uint8Array)) {
      const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      headers['content-length'] = String(bytes.length);
      body = slicedBody(bytes, req.onBodyBytes);
    }
    return this.attemptLoop(
      {
        method,
        url,
        headers,
        body,
        origin: req.family,
        resend: req.resend ?? defaultResendPolicy(method, req.family, Boolean(req.idempotencyKey)),
        accept: req.accept,
        retries: req.retries,
        timeoutMs: req.timeoutMs,
        holdsAnswer: req.holdsAnswer,
        largeAnswer: req.largeAnswer,
        sink,
        notToSink: req.notToSink,
      },
      read,
    );
  }

  private async attemptLoop(
    a: Attempt & { origin: ErrorOrigin; resend: ResendPolicy; accept?: number[]; retries?: number },
    read: Read,
  ): Promise<HttpResponse<unknown>> {
    const maxRetries = a.retries ?? this.retries;
    const clock = this.clock;
    const started = clock.now();
    for (let attempt = 0; ; attempt++) {
      let failure: { error: WesError; delayMs?: number; retryable: boolean };
      try {
        const res = await this.attempt(a, read);
        if (res.status < 400 || a.accept?.includes(res.status)) return res;
        const route = res.status === 407 ? proxyFor(this.opts.proxy, a.url) : undefined;
        if (route) throw proxyRefusal(route, 407, a.url.origin);
        const credentialSent = a.origin !== 'signed' && Boolean(this.credentialFor(a.origin, a.url));
        const error = decodeError({ origin: a.origin, status: res.status, headers: res.headers, body: res.body as Buffer, url: res.url, method: a.method, credentialSent });
        if (error.status === 401 && a.origin !== 'signed' && !credentialSent) error.hint = this.noKeySentHint(a.origin, a.url);
        failure = { error, delayMs: parseRetryAfter(res.headers['retry-after'], clock.now()), retryable: this.statusRetryable(a, error) };
      } catch (err) {
        const aborted = this.opts.signal?.aborted;
        if (aborted) throw this.opts.signal!.reason;
        if (err instanceof WesError || err instanceof AnswerSinkError) throw err;
        // undici refuses to send what HTTP cannot carry (a header value with a control character
        // or past Latin-1): nothing left, so it is not retried as a dropped connection.
        if ((err as { code?: string })?.code === 'UND_ERR_INVALID_ARG' && !isProxyRefusal(err)) {
          throw new UsageError(`the request cannot be sent: ${(err as Error).message}`, 'a header value may hold no control characters and only Latin-1 characters (check -H/--header)');
        }
        const error = (err as Error)?.name === 'TimeoutError' && a.timeoutMs
          ? new NetworkError(`no answer from ${a.url.origin} within ${a.timeoutMs / 1000} s`, undefined, err)
          : networkError(err, a.url, this.readTimeoutMs, proxyFor(this.opts.proxy, a.url));
        failure = { error, retryable: !CANNOT_HEAL.has(error.code) && (a.resend === 'replay' || isConnectFailure(err)) };
      }
      if (!failure.retryable || attempt >= maxRetries) throw failure.error;
      if (failure.delayMs !== undefined && failure.delayMs > RETRY_AFTER_MAX_MS) {
        failure.error.hint = retryAfterTooLong(failure.delayMs, clock.now());
        throw failure.error;
      }
      const delayMs = failure.delayMs !== undefined ? retryAfterWait(failure.delayMs) : backoffDelay(attempt);
      const spent = clock.now() - started;
      if (spent + delayMs > RETRY_BUDGET_MS) {
        failure.error.hint ??= `gave up after ${Math.round(spent / 1000)} s of retries (the budget is ${RETRY_BUDGET_MS / 1000} s); try again later`;
        throw failure.error;
      }
      this.opts.debug?.(`* retry ${attempt + 1}/${maxRetries} in ${delayMs} ms: ${failure.error.message}`);
      this.opts.onRetry?.({
        attempt: attempt + 1,
        maxRetries,
        delayMs,
        reason: failure.error.message,
        error: failure.error instanceof ApiError ? failure.error : undefined,
        cause: failure.error instanceof ApiError ? 'status' : isReadTimeout(failure.error.cause) ? 'read_timeout' : isConnectFailure(failure.error.cause) ? 'connect' : 'network',
      });
      await clock.sleep(delayMs, this.opts.signal);
    }
  }

  private statusRetryable(a: { resend: ResendPolicy; origin: ErrorOrigin }, error: ApiError): boolean {
    if (!RETRYABLE_STATUSES.has(error.status!)) return false;
    if (error.code === 'subscription_inactive') return false; // v1 429 without a queue reason: waiting will not help
    // A 429 refused the request before it made anything, which releases a single-use key.
    if (a.resend === 'single-use') return error.status === 429;
    return a.resend === 'replay';
  }

  private async attempt(
    a: Attempt,
    read: Read,
  ): Promise<HttpResponse<unknown>> {
    const started = monotonicMs();
    this.opts.debug?.(`> ${a.method} ${redactUrl(a.url)}`);
    const route = this.opts.debug ? proxyFor(this.opts.proxy, a.url) : undefined;
    if (route) this.opts.debug!(`* through proxy ${route.shown} (${route.from})`);
    if (this.opts.debug) for (const [k, v] of Object.entries(redactHeaders(a.headers))) this.opts.debug(`> ${k}: ${v}`);
    const body = typeof a.body === 'function' ? a.body() : a.body;
    const deadline = a.timeoutMs ? attemptDeadline(a.timeoutMs, this.opts.signal) : undefined;
    try {
      return await this.exchange(a, body, deadline?.signal ?? this.opts.signal, read, started);
    } finally {
      deadline?.clear();
    }
  }

  private async exchange(
    a: Attempt,
    body: unknown,
    signal: AbortSignal | undefined,
    read: Read,
    started: number,
  ): Promise<HttpResponse<unknown>> {
    const headersTimeout = a.holdsAnswer ? { headersTimeout: 0 } : {};
    // Every answer not handed over as a stream comes through the chunk handler, read into memory
    // or the sink: undici's request API wraps each body in a Readable, whose machinery a short
    // command paid for every answer (bench/RESULTS.md). Downloads and large answers go to the bulk agent.
    const chunks = read !== 'stream';
    const bulk = read === 'chunks' || Boolean(a.largeAnswer || a.sink);
    const dispatcher = this.dispatcherFor(a.url, bulk);
    const res = chunks
        ? await requestChunks(dispatcher, a.url, { method: a.method, headers: a.headers, body: body as Dispatcher.DispatchOptions['body'], signal, ...headersTimeout })
        : await undiciRequest(dispatcher, a.url, {
            method: a.method as Dispatcher.HttpMethod,
            headers: a.headers,
            body: body as Dispatcher.DispatchOptions['body'],
            signal,
            ...headersTimeout,
          });
    const headers = flattenHeaders(res.headers as Record<string, string | string[] | undefined>);
    const requestId = readMakerHeader(headers, 'requestId');
    const keepStream = read !== 'buffer' && res.statusCode < 300;
    const limit = this.maxAnswerBytes;
    // Every answer attemptLoop hands back, a 3xx one too (undici follows no redirect), goes to the
    // sink; a chunked body read into memory goes through the memory sink.
    const sink = a.sink && res.statusCode < 400 && !a.notToSink?.includes(res.statusCode) ? a.sink : isChunkedBody(res.body) ? memorySink : undefined;
    const payload = keepStream
      ? res.body
      : sink
        ? await fillSink(isChunkedBody(res.body) ? res.body : chunksOf(res.body as Readable), sink, limit, headers['content-length'], a.url.origin)
        : await readBounded(res.body as Readable, limit, headers['content-length'], a.url.origin);
    this.opts.debug?.(
      `< ${res.statusCode} ${a.method} ${redactUrl(a.url)} (${Math.round(monotonicMs() - started)} ms${requestId ? `, request id ${requestId}` : ''})`,
    );
    return { status: res.statusCode, headers, url: a.url, requestId, body: payload };
  }

  async close(): Promise<void> {
    // Closing a connection destroys its socket with an error whose stack Node formats at once
    // (streams' destroy reads err.stack): V8 then computes the line ends of undici's whole chunk,
    // ~4 M instructions, 2 % of a `jobs get`, for an error nobody sees. No frames, nothing to format.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      await Promise.all([this.agent, this.bulkAgent, ...this.proxyAgents.values()].map((agent) => agent?.close().catch(() => agent.destroy())));
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * A signal that aborts after `ms` or with `parent`. A plain timer rather than AbortSignal.any with
 * AbortSignal.timeout: Node holds any()'s sources weakly, and a collected timeout never fires.
 */
function attemptDeadline(ms: number, parent: AbortSignal | undefined): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  const onParent = () => controller.abort(parent!.reason);
  parent?.addEventListener('abort', onParent, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}

interface Attempt {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: BodySource;
  timeoutMs?: number;
  holdsAnswer?: boolean;
  largeAnswer?: boolean;
  /** Where a body below 400 goes instead of memory (HttpClient.into). */
  sink?: AnswerSink<unknown>;
  notToSink?: number[];
}

/** Every way to give wes a key; a 401 to a request that carried none is answered with it. */
const NO_KEY_SENT_HINT = `no API key was sent: ${HOW_TO_GIVE_A_KEY}`;

/** Every way to give an engine on an origin of its own a key of its own. */
export const HOW_TO_GIVE_AN_ENGINE_KEY = 'if the engine wants one, give it its own: WES_ENGINE_KEY, --engine-key or `wes config set engine_key KEY`';

/** A family that answers nothing without a credential, asked with none configured: stopped before sending. */
function noCredentialError(family: ApiFamily): WesError {
  return new WesError(`no credential for the ${family} API family: the model router answers no request without one`, {
    exitCode: ExitCode.AUTH,
    code: 'no_credential',
    origin: family,
    hint: `${HOW_TO_GIVE_A_KEY} (WES_ROUTER_TOKEN or --router-token for the router alone)`,
  });
}


function parseJsonBody<T>(res: HttpResponse<Buffer>): T {
  if (res.status === 204 || res.status === 304 || res.body.length === 0) return undefined as T;
  try {
    return JSON.parse(res.body.toString('utf8')) as T;
  } catch (err) {
    // An error status the caller accepted may come as plain text (a self-hosted engine's `404: Not Found`).
    if (res.status >= 400) return undefined as T;
    throw new WesError(`unreadable response from ${res.url.origin}: not valid JSON (${(err as Error).message})`, {
      exitCode: ExitCode.ERROR,
      code: 'bad_response',
      status: res.status,
      requestId: res.requestId,
    });
  }
}

/** Milliseconds on a monotonic clock, without `performance`: its global loads node:perf_hooks (~10 modules) into every request. */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
