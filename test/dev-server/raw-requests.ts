// Requests fetch would never send, written on a raw socket, and what a test needs to see that the
// dev-server survived them: it still answers, and left no upload temp files behind.
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { expect } from 'vitest';
import type { FileBlobStore } from '../../src/dev-server/assets/blob-store.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { getJson } from '../helpers/dev-server.js';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes fetch would never send and reads the answer until the server closes. */
export function rawRequest(url: string, text: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const whole = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = whole.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

export const BAD_TARGET = 'http://[/x';
export const UPGRADE = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

export async function stillServing(server: DevServerHandle): Promise<void> {
  expect((await getJson(server, '/api/v2/jobs/00000000-0000-0000-0000-000000000000')).status).toBe(404);
}

export async function incomingFiles(server: DevServerHandle): Promise<string[]> {
  return (await readdir((server.state.blobs as FileBlobStore).dir)).filter((name) => name.startsWith('incoming-'));
}

export function multipartHead(field: string, boundary: string, authHeader: string, path: string, declaredLength: number): string {
  return `POST ${path} HTTP/1.1\r\nHost: x\r\n${authHeader}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
    `Content-Length: ${declaredLength}\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\n\r\n`;
}
