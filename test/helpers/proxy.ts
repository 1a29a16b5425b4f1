// A small real HTTP proxy on 127.0.0.1:0, as a company network has one: plain forwarding of
// absolute-form requests (http: targets) and CONNECT tunnels (https:, and WebSockets), optionally
// asking for Basic credentials (407). Every request it is asked is recorded.
import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxiedCall {
  /** GET, POST, ... for a forwarded request; CONNECT for a tunnel. */
  method: string;
  /** The absolute URL forwarded, or `host:port` of a tunnel. */
  target: string;
  /** The Proxy-Authorization header it came with. */
  authorization?: string;
  /** Whether the proxy refused it for want of the right credentials. */
  refused: boolean;
}

export interface TestProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The URL with `user:password@` when the proxy asks for them. */
  urlWithCredentials: string;
  calls: ProxiedCall[];
  close(): Promise<void>;
}

export async function startTestProxy(options: { user?: string; password?: string } = {}): Promise<TestProxy> {
  const calls: ProxiedCall[] = [];
  const sockets = new Set<Socket>();
  const expected = options.user === undefined ? undefined : `Basic ${Buffer.from(`${options.user}:${options.password ?? ''}`).toString('base64')}`;
  const record = (req: IncomingMessage, target: string): ProxiedCall => {
    const call = { method: req.method!, target, authorization: req.headers['proxy-authorization'], refused: expected !== undefined && req.headers['proxy-authorization'] !== expected };
    calls.push(call);
    return call;
  };
  const server = createServer((req, res) => {
    const call = record(req, req.url!);
    if (call.refused) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': '0' }).end();
    const target = new URL(req.url!);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const call = record(req, req.url!);
    if (call.refused) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
    const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')).replace(/^\[(.*)\]$/, '$1'), Number(req.url!.slice(req.url!.lastIndexOf(':') + 1))];
    const upstream = connect({ host, port }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const credentials = options.user === undefined ? '' : `${encodeURIComponent(options.user)}:${encodeURIComponent(options.password ?? '')}@`;
  return {
    url,
    urlWithCredentials: `http://${credentials}127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
