// undici's Agent and request API, imported from their own files rather than undici's index: the
// index also builds fetch, WebSocket, caches, mocks, proxies and interceptors, which loads ~60 of
// Node's own modules (http2, tls, crypto, worker_threads, zlib, Node's internal undici...) into
// every command. These files are undici's internals: undici is pinned to one version (the build
// checks it, scripts/build-undici.mjs) and test/http/undici-core.test.ts checks they are the very
// objects its index exports. README.md, Development, "How the build is made" says what they buy.
import type { Dispatcher, Agent as UndiciAgent, Pool as UndiciPool, ProxyAgent as UndiciProxyAgent, errors as UndiciErrors } from 'undici';
// @ts-expect-error undici ships no declarations for its internal files; typed from its index below.
import AgentImpl from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error as above
import requestImpl from 'undici/lib/api/api-request.js';
// @ts-expect-error as above
import errorsImpl from 'undici/lib/core/errors.js';
// The proxy's dispatcher (src/http/proxy-dispatch.ts). Bundled here rather than loaded on demand:
// a module loaded on demand that reaches undici splits the chunk every request loads in two. Its
// SOCKS part, which wes does not offer, is left out of the bundle (no-socks in patches/undici@*.patch).
// @ts-expect-error as above
import ProxyAgentImpl from 'undici/lib/dispatcher/proxy-agent.js';
// @ts-expect-error as above
import PoolImpl from 'undici/lib/dispatcher/pool.js';
// @ts-expect-error as above
import connectImpl from 'undici/lib/api/api-connect.js';

export type { Dispatcher };
export type Agent = UndiciAgent;
export const Agent = AgentImpl as typeof UndiciAgent;
export const ProxyAgent = ProxyAgentImpl as typeof UndiciProxyAgent;
export const Pool = PoolImpl as typeof UndiciPool;
/** undici's `connect` (what its index puts on every dispatcher, and ProxyAgent calls on its client to the proxy). */
export const connectApi = connectImpl as Dispatcher['connect'];
/** undici's own error for a connection not made in time (what its connector throws; code UND_ERR_CONNECT_TIMEOUT). */
export const ConnectTimeoutError = (errorsImpl as typeof UndiciErrors).ConnectTimeoutError;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request` on one dispatcher (what `request(url, { dispatcher })` from the index does). */
export function request(dispatcher: Dispatcher, url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const call = requestImpl as (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  return call.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}

/**
 * Node's `--max-http-header-size` (what undici's Client reads from `http.maxHeaderSize` when it is
 * given no `maxHeaderSize`), without loading node:http unless the flag was given: the build makes
 * undici read node:http only for that default (lazy-http in patches/undici@*.patch), so passing this value
 * keeps node:http's 9 modules out of every request. 16 KiB is Node's default.
 */
export function nodeMaxHeaderSize(): number {
  const flagged = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('--max-http-header-size'));
  return flagged ? process.getBuiltinModule('node:http').maxHeaderSize : 16 * 1024;
}
