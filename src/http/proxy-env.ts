// Which requests go through a proxy, as curl, npm and gh decide it: HTTPS_PROXY for https: (and
// wss:) targets, HTTP_PROXY for http: (and ws:), lower-case names first; NO_PROXY lists hosts,
// domains (`.corp`, `*.corp`), `host:port`, IPv4 ranges (`10.0.0.0/8`) or `*` that are reached
// directly. Loopback (localhost, 127.0.0.0/8, ::1) is never proxied unless WES_PROXY_LOOPBACK=1
// asks for it: a local dev-server or engine is not behind the company proxy. Pure text handling,
// loaded by every command; the connections themselves are made in proxy-dispatch.ts, on demand.
import { ExitCode, UsageError, WesError } from '../errors.js';
import { withoutPassword } from '../config/keys.js';

export interface ProxyRoute {
  /** The proxy, credentials included (never printed: see `shown`). */
  url: URL;
  /** The proxy as it may be printed: any password redacted. */
  shown: string;
  /** The variable it came from, for messages. */
  from: string;
}

export interface ProxySettings {
  http?: ProxyRoute;
  https?: ProxyRoute;
  noProxy: NoProxyEntry[];
  /** NO_PROXY=*: nothing is proxied. */
  noneProxied: boolean;
  /** WES_PROXY_LOOPBACK=1: loopback targets go through the proxy too. */
  proxyLoopback: boolean;
}

interface NoProxyEntry {
  host?: string;
  port?: number;
  /** An IPv4 range: the address and the mask as numbers. */
  range?: { base: number; mask: number };
}

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'ws:': 80, 'https:': 443, 'wss:': 443 };

function variable(env: NodeJS.ProcessEnv, name: string): { value: string; from: string } | undefined {
  for (const from of [name.toLowerCase(), name]) {
    const value = env[from]?.trim();
    if (value) return { value, from };
  }
  return undefined;
}

function proxyRoute(env: NodeJS.ProcessEnv, name: string): ProxyRoute | undefined {
  const found = variable(env, name);
  if (!found) return undefined;
  // `proxy.corp:3128` without a scheme is an http proxy, as curl reads it.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(found.value) ? found.value : `http://${found.value}`;
  const shown = withoutPassword(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${found.from} is not a proxy URL: ${shown}`, `write it as http://HOST:PORT (with USER:PASSWORD@ before the host when the proxy asks for them), or unset ${found.from}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${found.from} names a ${url.protocol.slice(0, -1)} proxy (${shown}); wes speaks to http:// and https:// proxies`, `give an HTTP proxy in ${found.from}, or unset it`);
  }
  return { url, shown: withoutPassword(url.toString()).replace(/\/$/, ''), from: found.from };
}

function ipv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function noProxyEntry(raw: string): NoProxyEntry | undefined {
  const entry = raw.trim().toLowerCase();
  if (!entry) return undefined;
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(entry);
  if (cidr && ipv4(cidr[1]!) !== undefined && Number(cidr[2]) <= 32) {
    const bits = Number(cidr[2]);
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return { range: { base: (ipv4(cidr[1]!)! & mask) >>> 0, mask } };
  }
  const withPort = /^(.*?):(\d+)$/.exec(entry);
  const host = (withPort && !withPort[1]!.includes(':') ? withPort[1]! : entry).replace(/^\*?\./, '').replace(/^\[(.*)\]$/, '$1');
  return { host, port: withPort && !withPort[1]!.includes(':') ? Number(withPort[2]) : undefined };
}

/** The proxy settings of an environment (process.env for the CLI, as given for the library). */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const noProxy = variable(env, 'NO_PROXY')?.value ?? '';
  return {
    http: proxyRoute(env, 'HTTP_PROXY'),
    https: proxyRoute(env, 'HTTPS_PROXY'),
    noProxy: noProxy.split(/[\s,]+/).flatMap((e) => noProxyEntry(e) ?? []),
    noneProxied: noProxy.trim() === '*',
    proxyLoopback: env.WES_PROXY_LOOPBACK === '1',
  };
}

/** A host name (without brackets) that is this machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  const v4 = ipv4(host.replace(/^::ffff:/, ''));
  return v4 !== undefined && v4 >>> 24 === 127;
}

function listed(entry: NoProxyEntry, host: string, port: number): boolean {
  if (entry.port !== undefined && entry.port !== port) return false;
  if (entry.range) {
    const v4 = ipv4(host);
    return v4 !== undefined && ((v4 & entry.range.mask) >>> 0) === entry.range.base;
  }
  return host === entry.host || host.endsWith(`.${entry.host}`);
}

/** The proxy a request to `target` goes through, or undefined for a direct connection. */
export function proxyFor(settings: ProxySettings | undefined, target: URL): ProxyRoute | undefined {
  if (!settings || settings.noneProxied) return undefined;
  const route = target.protocol === 'https:' || target.protocol === 'wss:' ? settings.https : settings.http;
  if (!route) return undefined;
  const host = target.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (!settings.proxyLoopback && isLoopback(host)) return undefined;
  const port = Number(target.port) || DEFAULT_PORT[target.protocol] || 0;
  return settings.noProxy.some((entry) => listed(entry, host, port)) ? undefined : route;
}

/**
 * A proxy's refusal to open a connection, said as what it is: 407 wants (other) credentials in
 * the proxy URL, which cannot heal by retrying; anything else means the proxy could not or would
 * not reach the target.
 */
export function proxyRefusal(route: ProxyRoute, status: number, target: string): WesError {
  const proxy = `the proxy ${route.shown} (from ${route.from})`;
  if (status === 407) {
    return new WesError(`${proxy} ${route.url.username ? 'refused the credentials in its URL' : 'asks for credentials'} (407 Proxy Authentication Required)`, {
      exitCode: ExitCode.AUTH,
      code: 'proxy_auth_required',
      status,
      hint: `give them in ${route.from}: http://USER:PASSWORD@HOST:PORT (percent-encode characters such as @ and : in them)`,
    });
  }
  return new WesError(`${proxy} did not open a connection to ${target}${status ? ` (it answered ${status})` : ''}`, {
    exitCode: ExitCode.ERROR,
    code: 'proxy_refused',
    status: status || undefined,
    hint: `check that the proxy lets this host through; to reach it directly, add its host to NO_PROXY`,
  });
}
