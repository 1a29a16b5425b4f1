// Connections through a proxy (proxy-env.ts decides which requests go through one). HTTP requests
// use undici's ProxyAgent (undici-core.ts): an https: target through a CONNECT tunnel, an http:
// target forwarded as a plain request (absolute URL), as curl does. The v1 WebSocket gets a CONNECT
// tunnel of its own (tunnelConnection), since `ws` makes its connections with node:http, not undici.
// node:tls is loaded only for a tunnel that needs it.
import { connect as netConnect, type Socket } from 'node:net';
import type { ProxyAgent as UndiciProxyAgent } from 'undici';
import type { Dispatcher } from './undici-core.js';
import { connectApi, Pool, ProxyAgent } from './undici-core.js';
import { proxyRefusal, type ProxyRoute } from './proxy-env.js';

export type AgentOptions = Omit<UndiciProxyAgent.Options, 'uri'>;

/**
 * A dispatcher for every target that goes through `route`. undici's index gives every dispatcher
 * its `connect` method, which ProxyAgent calls on its client to the proxy to open a tunnel; without
 * the index, that client is given the method itself.
 */
export function proxyDispatcher(route: ProxyRoute, options: AgentOptions): Dispatcher {
  const maxHeaderSize = options.maxHeaderSize;
  // The Agent's own TLS options (a private CA) are for the targets, reached through the tunnel.
  const targetTls = typeof options.connect === 'object' ? options.connect : undefined;
  return new ProxyAgent({
    ...options,
    ...(targetTls ? { requestTls: targetTls } : {}),
    uri: route.url.toString(),
    // An http: target is forwarded as a plain request, not tunnelled (many proxies refuse CONNECT to port 80).
    proxyTunnel: false,
    clientFactory: (origin: URL, opts: object) => Object.assign(new Pool(origin, { ...opts, maxHeaderSize }), { connect: connectApi }),
    factory: (origin: string | URL, opts: object) => new Pool(origin, { ...opts, maxHeaderSize }),
  } as UndiciProxyAgent.Options);
}

/** What node:http gives a `createConnection` (the target's host, port and TLS server name). */
interface ConnectionTarget {
  host?: string | null;
  hostname?: string | null;
  port?: number | string | null;
  servername?: string;
}

/**
 * A `createConnection` for node:http (what `ws` passes on): a CONNECT tunnel through the proxy to
 * the target, with TLS on top for `secure` (wss:). The callback gets the socket, or the proxy's
 * refusal as an error that says what it was (proxyRefusal).
 */
export function tunnelConnection(route: ProxyRoute, secure: boolean, timeoutMs: number) {
  return (target: ConnectionTarget, done: (err: Error | null, socket?: Socket) => void): undefined => {
    const host = (target.hostname ?? target.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.port) || (secure ? 443 : 80);
    const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    const proxyPort = Number(route.url.port) || (route.url.protocol === 'https:' ? 443 : 80);
    const proxyHost = route.url.hostname.replace(/^\[(.*)\]$/, '$1');
    const tls = () => process.getBuiltinModule('node:tls');
    const socket: Socket = route.url.protocol === 'https:' ? tls().connect({ host: proxyHost, port: proxyPort, servername: proxyHost }) : netConnect({ host: proxyHost, port: proxyPort });
    let settled = false;
    const finish = (err: Error | null, result?: Socket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.off('data', onData);
      if (err) socket.destroy();
      done(err, result);
    };
    const timer = setTimeout(() => finish(new Error(`the proxy ${route.shown} did not open a tunnel to ${authority} within ${timeoutMs / 1000} s`)), timeoutMs);
    const credentials = route.url.username ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(route.url.username)}:${decodeURIComponent(route.url.password)}`).toString('base64')}\r\n` : '';
    socket.once(route.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`);
    });
    socket.once('error', (err) => finish(err));
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 16 * 1024) finish(new Error(`the proxy ${route.shown} sent an answer head longer than 16 KiB`));
        return;
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1', 0, end))?.[1] ?? 0);
      if (status !== 200) return finish(proxyRefusal(route, status, `${secure ? 'wss' : 'ws'}://${authority}`));
      const rest = head.subarray(end + 4);
      if (rest.length) socket.unshift(rest);
      if (!secure) return finish(null, socket);
      const secured = tls().connect({ socket, servername: target.servername ?? host, ALPNProtocols: ['http/1.1'] });
      secured.once('secureConnect', () => finish(null, secured));
      secured.once('error', (err) => finish(err));
    };
    socket.on('data', onData);
    return undefined;
  };
}
