// The composition root, its HTTP half: resolved settings, the environment and a few per-call
// options turned into the one HttpClient. The CLI's factory (src/cli-factory.ts) and the library
// (src/index.ts) both build theirs here, so a script gets what the CLI gets: the answer-size limit
// (--max-answer-mib, WES_MAX_ANSWER_MIB), the proxies of the environment, the read timeout, the
// engine and router URLs. The families' clients on it: clients.ts (apart, so that a command that
// needs only the jobs client loads none of the others).
import { HttpClient, type HttpClientOptions } from '../http/client.js';
import { MAX_ANSWER_ENV, parseMaxAnswer } from '../http/answer-limit.js';
import { proxySettings, type ProxySettings } from '../http/proxy-env.js';
import type { Settings } from '../config/settings.js';
import { VERSION } from '../factory-version.js';

/** Where the clients talk to and with which credentials: resolved settings, or the library's options made into them. */
export type Endpoints = Pick<Settings, 'baseUrl' | 'routerUrl' | 'engineUrl' | 'apiKey' | 'routerToken'> & Partial<Pick<Settings, 'engineKey'>> & { readTimeoutMs?: number };

export interface HttpComposition extends Pick<HttpClientOptions, 'retries' | 'signal' | 'connections' | 'onRetry' | 'debug' | 'dispatcher' | 'clock'> {
  endpoints: Endpoints;
  /** WES_MAX_ANSWER_MIB, and the proxy variables unless `proxy` is given. */
  env: NodeJS.ProcessEnv;
  /** --max-answer-mib (or the library's maxAnswerMib): wins over WES_MAX_ANSWER_MIB. */
  maxAnswerMib?: string;
  /** Default: proxySettings(env). */
  proxy?: ProxySettings;
  userAgent: string;
}

/** `wes/1.2.3 node/20.19.0` (the CLI) or `wes-lib/...` (a script using the library). */
export function userAgentOf(product: 'wes' | 'wes-lib'): string {
  return `${product}/${VERSION} node/${process.versions.node}`;
}

export function composeHttp(c: HttpComposition): HttpClient {
  const e = c.endpoints;
  return new HttpClient({
    baseUrl: e.baseUrl,
    routerUrl: e.routerUrl,
    engineUrl: e.engineUrl,
    apiKey: e.apiKey,
    routerToken: e.routerToken,
    engineKey: e.engineKey,
    readTimeoutMs: e.readTimeoutMs,
    retries: c.retries,
    maxAnswerBytes: parseMaxAnswer(c.maxAnswerMib, c.env[MAX_ANSWER_ENV]),
    signal: c.signal,
    onRetry: c.onRetry,
    debug: c.debug,
    userAgent: c.userAgent,
    connections: c.connections,
    proxy: c.proxy ?? proxySettings(c.env),
    dispatcher: c.dispatcher,
    clock: c.clock,
  });
}

