// A listener on 127.0.0.1:0 that passes every request, WebSocket upgrades included, to a real
// server behind it and records what arrived (method, target, headers): the origin a test hands to
// wes in place of that server, to see which credentials wes sends there.
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface ArrivedRequest {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  headers: IncomingHttpHeaders;
  upgrade: boolean;
}

export interface RecordingForwarder {
  url: string;
  arrived: ArrivedRequest[];
  close(): Promise<void>;
}

export async function startRecordingForwarder(target: string): Promise<RecordingForwarder> {
  const to = new URL(target);
  const arrived: ArrivedRequest[] = [];
  const tunnels = new Set<import('node:net').Socket>();
  const server = createServer((req, res) => {
    arrived.push({ method: req.method!, url: req.url!, headers: req.headers, upgrade: false });
    const onward = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
  server.on('upgrade', (req, socket, head) => {
    arrived.push({ method: req.method!, url: req.url!, headers: req.headers, upgrade: true });
    tunnels.add(socket as import('node:net').Socket);
    const onward = connect(Number(to.port), to.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      onward.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) onward.write(head);
      onward.pipe(socket).pipe(onward);
    });
    tunnels.add(onward);
    onward.on('error', () => socket.destroy());
    socket.on('error', () => onward.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        for (const socket of tunnels) socket.destroy();
        server.close(() => r());
      }),
  };
}

/** Every place a credential could travel in: the headers and the request target (the WebSocket's `token`). */
export function carried(request: ArrivedRequest): string {
  return `${request.url}\n${JSON.stringify(request.headers)}`;
}
