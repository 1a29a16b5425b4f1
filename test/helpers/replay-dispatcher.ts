// Below HTTP, only what real servers sent: an undici MockAgent (HttpClientOptions.dispatcher) that
// answers each request with one exchange of the wire recordings in ../shared/observations/recordings
// (recordings/README.md): the recorded status, headers in wire order and the exact body bytes
// (`body_raw` or `body_text`). An exchange recorded without its exact bytes (a JSON body kept only
// parsed, a binary one cut to its first bytes) is refused rather than rebuilt. No socket is opened:
// net connect is disabled, so a request the test did not replay fails instead of leaving the machine.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MockAgent } from 'undici';

// Verbatim copies of ../shared/observations/recordings (a clone of the repository alone must run the suite).
const RECORDINGS = fileURLToPath(new URL('../dev-server/reference/', import.meta.url));

/** One recorded request and its answer, as the recording files hold them. */
export interface RecordedExchange {
  request: { method: string; url?: string; path?: string; server?: string; headers: Record<string, string>; body?: unknown };
  response: { status: number; headers: Array<[string, string]>; body_raw?: string; body_text?: string; body_length?: number };
}

/** What the replay saw of a request that reached it (the client's side of the wire). */
export interface ReplayedRequest {
  method: string;
  /** Without the query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const cache = new Map<string, Record<string, unknown>>();
function recording(file: string): Record<string, unknown> {
  let data = cache.get(file);
  if (!data) cache.set(file, (data = JSON.parse(readFileSync(RECORDINGS + file, 'utf8')) as Record<string, unknown>));
  return data;
}

/** An exchange of v2-proxy-lifecycle.json or v2-proxy-token.json, by its key. */
export function namedExchange(file: 'v2-proxy-lifecycle.json' | 'v2-proxy-token.json', name: string): RecordedExchange {
  const found = (recording(file).exchanges as Record<string, RecordedExchange>)[name];
  if (!found) throw new Error(`${file} has no exchange ${name}`);
  return found;
}

/** An exchange of v2-proxy-edges.json, by its `case` (exact). */
export function edgeCase(name: string): RecordedExchange {
  const found = (recording('v2-proxy-edges.json').exchanges as Array<RecordedExchange & { case: string }>).find((e) => e.case === name);
  if (!found) throw new Error(`v2-proxy-edges.json has no case ${name}`);
  return found;
}

/** An exchange of engine-http.json, by engine version and key. */
export function engineExchange(version: '0.3.18' | '0.3.64', name: string): RecordedExchange {
  const engine = (recording('engine-http.json').engines as Record<string, { exchanges: Record<string, RecordedExchange> }>)[version];
  const found = engine?.exchanges[name];
  if (!found) throw new Error(`engine-http.json has no exchange ${name} for ${version}`);
  return found;
}

/** The origin a recording's server answered on (`http://127.0.0.1:8193 (comfy-api-proxy...)` gives its URL). */
const RECORDED_PROXY_ORIGIN = 'http://127.0.0.1:8193';

function target(e: RecordedExchange): URL {
  if (e.request.url) return new URL(e.request.url);
  const server = /^https?:\/\/[^\s]+/.exec(e.request.server ?? '')?.[0] ?? RECORDED_PROXY_ORIGIN;
  return new URL(e.request.path!, server);
}

/** The recorded answer's exact bytes; an answer recorded only parsed or cut cannot be replayed faithfully. */
function exactBody(e: RecordedExchange): string {
  const body = e.response.body_raw ?? e.response.body_text ?? (e.response.body_length === 0 ? '' : undefined);
  if (body === undefined) throw new Error(`the exchange ${e.request.method} ${target(e).pathname} was recorded without its exact body: not replayable`);
  if (e.response.body_length !== undefined && Buffer.byteLength(body) !== e.response.body_length) {
    throw new Error(`the recorded body of ${target(e).pathname} is ${Buffer.byteLength(body)} bytes, not the ${e.response.body_length} recorded`);
  }
  return body;
}

function headerObject(raw: Array<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of raw) {
    const prior = out[name];
    out[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  return out;
}

/** A connection failure as Node's sockets raise it (what undici passes on): no server answer is made up. */
export function socketError(code: 'ECONNREFUSED' | 'ECONNRESET'): Error {
  const verb = code === 'ECONNREFUSED' ? 'connect' : 'read';
  return Object.assign(new Error(`${verb} ${code}`), { code, errno: code === 'ECONNREFUSED' ? -111 : -104, syscall: verb });
}

export class ReplayDispatcher {
  /** What HttpClientOptions.dispatcher takes; it keeps every request that reached it (calls()). */
  readonly agent = new MockAgent({ enableCallHistory: true });

  constructor() {
    this.agent.disableNetConnect();
  }

  /** Answers the next request for the exchange's method and path with what the server recorded. */
  answer(e: RecordedExchange): this {
    const body = exactBody(e);
    this.intercept(e).reply(e.response.status, body, { headers: headerObject(e.response.headers) });
    return this;
  }

  /** The next request for the exchange's method and path fails on its connection with `error`. */
  fail(e: RecordedExchange, error: Error): this {
    this.intercept(e).replyWithError(error);
    return this;
  }

  /** Every request that reached the replay, in order: method, path, headers (lower-case names) and body. */
  calls(): ReplayedRequest[] {
    return (this.agent.getCallHistory()?.calls() ?? []).map((c) => ({
      method: c.method,
      path: c.path,
      headers: Object.fromEntries(Object.entries(c.headers ?? {}).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v])),
      body: c.body ?? undefined,
    }));
  }

  /** Throws when a replayed exchange was never asked for. */
  allAsked(): void {
    this.agent.assertNoPendingInterceptors();
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private intercept(e: RecordedExchange) {
    const url = target(e);
    return this.agent.get(url.origin).intercept({ method: e.request.method, path: `${url.pathname}${url.search}` });
  }
}
