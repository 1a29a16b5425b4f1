// The v1 WebSocket is read in batches (a flood of small frames costs a wakeup and a read per
// frame otherwise): every message still arrives, in order, and drain() hands over what has
// arrived before it settles, so a follower that learns the end from REST keeps the last messages.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { HttpClient } from '../../src/http/client.js';
import { openLegacySocket, READ_EVERY_MS, type LegacySocket, type SocketEvent } from '../../src/clients/legacy/socket.js';
import { encodeFrame, FRAME_TEXT } from '../../src/protocol/legacy-frames.js';
import { until } from '../helpers/until.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A /ws endpoint that calls `onClient` with each connection. */
async function wsServer(onClient: (ws: WebSocket) => void): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server, path: '/ws' });
  wss.on('connection', onClient);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => wss.close(() => server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function follow(url: string, readEveryMs?: number): { socket: LegacySocket; events: SocketEvent[] } {
  const events: SocketEvent[] = [];
  const http = new HttpClient({ baseUrl: url, routerUrl: url, apiKey: 'k', routerToken: 't', retries: 0 });
  const socket = openLegacySocket({ http, onEvent: (event) => events.push(event), readEveryMs, maxAttempts: 0 });
  closers.push(async () => {
    socket.close();
    await socket.closed.catch(() => undefined);
    await http.close();
  });
  return { socket, events };
}

const numbers = (events: SocketEvent[]) => events.flatMap((e) => (e.kind === 'message' ? [e.message.data.n as number] : e.kind === 'binary' && e.frame.type === FRAME_TEXT ? [Number(e.frame.text)] : []));

describe('the v1 WebSocket read in batches', () => {
  it('reads by default in batches, and delivers a flood of 4 000 text and binary frames whole and in order', async () => {
    expect(READ_EVERY_MS).toBeGreaterThan(0);
    const url = await wsServer((ws) => {
      for (let n = 0; n < 4000; n++) {
        if (n % 2) ws.send(Buffer.from(encodeFrame({ type: FRAME_TEXT, nodeId: '7', text: String(n) })));
        else ws.send(JSON.stringify({ type: 'progress', data: { n } }));
      }
    });
    const { socket, events } = follow(url);
    await socket.ready;
    await until(() => numbers(events).length === 4000, 'every message');
    expect(numbers(events)).toEqual(Array.from({ length: 4000 }, (_, n) => n));
  });

  it('drain() settles only after what the server sent before it was handed over', async () => {
    let client: WebSocket | undefined;
    const url = await wsServer((ws) => (client = ws));
    const { socket, events } = follow(url, 200); // long batches: without drain, nothing would be read yet
    await socket.ready;
    await until(() => client !== undefined, 'the connection');
    await new Promise<void>((resolve) => client!.send(JSON.stringify({ type: 'executing', data: { n: 1 } }), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 20)); // on the client's host by now
    await socket.drain();
    expect(numbers(events)).toEqual([1]);
  });

  it('reads as data lands with readEveryMs 0, and drain() settles at once', async () => {
    const url = await wsServer((ws) => ws.send(JSON.stringify({ type: 'status', data: { n: 5 } })));
    const { socket, events } = follow(url, 0);
    await socket.ready;
    await until(() => numbers(events).length === 1, 'the message');
    await socket.drain();
    expect(numbers(events)).toEqual([5]);
  });
});
