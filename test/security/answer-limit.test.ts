// A server must not decide how much memory wes takes: a JSON answer, an error body or a v1
// WebSocket message past the limit (64 MiB by default, --max-answer-mib / WES_MAX_ANSWER_MIB)
// stops the command with exit 1 after reading no more than the limit, and is never retried. The
// peak RSS of the real wes process is read from /proc while it runs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { runWes, type RunResult } from '../helpers/cli.js';

const MIB = 1024 * 1024;
const JOB_ID = '11111111-2222-4333-8444-555555555555';
const PROMPT_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const WATCHED_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-ffffffffffff';

/** Streams `total` bytes of one JSON string in 1 MiB chunks, without a Content-Length. */
function streamHugeJson(res: ServerResponse, status: number, total: number): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(MIB, 'a');
  let sent = 0;
  const pump = (): void => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end('"}');
  };
  res.write('{"id":"');
  pump();
}

let server: Server;
let url = '';
const hits = new Map<string, number>();

function route(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  hits.set(path, (hits.get(path) ?? 0) + 1);
  res.on('error', () => undefined);
  if (path === `/api/v2/jobs/${JOB_ID}`) return streamHugeJson(res, 200, 300 * MIB);
  if (path === `/api/job/${PROMPT_ID}/status`) return streamHugeJson(res, 500, 300 * MIB);
  if (path === '/v1/models/acme/huge') {
    // Declared up front: refused before a byte of the body is read (none is ever sent).
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(700 * MIB) });
    res.flushHeaders();
    return;
  }
  if (path === `/api/job/${WATCHED_ID}/status`) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'in_progress' }));
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"no"}}');
}

beforeAll(async () => {
  server = createServer(route);
  const wss = new WebSocketServer({ server, path: '/ws' });
  // A 3 MiB text message: past a 2 MiB limit, whose frame header already says so.
  wss.on('connection', (socket) => {
    hits.set('/ws', (hits.get('/ws') ?? 0) + 1);
    socket.send(JSON.stringify({ type: 'status', data: { pad: 'x'.repeat(3 * MIB) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Runs wes against the server, sampling the child's peak resident set (VmHWM) from /proc. */
async function wesMeasured(args: string[], env: Record<string, string> = {}): Promise<RunResult & { peakMiB: number }> {
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  const res = await runWes(args, {
    env: { WES_BASE_URL: url, WES_API_KEY: 'k-answer-limit', ...env },
    onSpawn: (child) => {
      timer = setInterval(() => {
        try {
          const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (hwm) peak = Math.max(peak, Number(hwm[1]) / 1024);
        } catch {
          // the process has ended
        }
      }, 10);
    },
  });
  clearInterval(timer);
  return { ...res, peakMiB: peak };
}

describe.runIf(process.platform === 'linux')('answers larger than the limit (Linux only: the memory bound is read from /proc)', () => {
  it('a 300 MiB JSON answer on the job API: exit 1 after at most 64 MiB, one request, bounded RSS', async () => {
    hits.clear();
    const res = await wesMeasured(['jobs', 'get', JOB_ID]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('sent an answer of more than 64 MiB; the limit is 64 MiB');
    expect(res.stderr).toContain('--max-answer-mib');
    expect(hits.get(`/api/v2/jobs/${JOB_ID}`)).toBe(1);
    expect(res.peakMiB).toBeGreaterThan(0);
    expect(res.peakMiB).toBeLessThan(220);
  });

  it('a 700 MiB answer declared by the router is refused before reading: "sent a 700 MiB answer"', async () => {
    hits.clear();
    const res = await wesMeasured(['models', 'show', 'acme/huge'], { WES_ROUTER_TOKEN: 'k-answer-limit' });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('sent a 700 MiB answer; the limit is 64 MiB');
    expect(hits.get('/v1/models/acme/huge')).toBe(1);
    expect(res.peakMiB).toBeLessThan(150);
  });

  it('a huge error body on the v1 API is not retried like a 500 would be, and stays bounded', async () => {
    hits.clear();
    const res = await wesMeasured(['legacy', 'status', PROMPT_ID, '--max-answer-mib', '16', '--quiet']);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('sent an answer of more than 16 MiB; the limit is 16 MiB');
    expect(hits.get(`/api/job/${PROMPT_ID}/status`)).toBe(1);
    expect(res.peakMiB).toBeLessThan(150);
  });

  it('a v1 WebSocket text message past the limit (WES_MAX_ANSWER_MIB=2) ends the watch with exit 1, no reconnect', async () => {
    hits.clear();
    const res = await wesMeasured(['legacy', 'watch', WATCHED_ID, '--quiet'], { WES_MAX_ANSWER_MIB: '2' });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('sent an answer of more than 2.0 MiB; the limit is 2.0 MiB');
    expect(hits.get('/ws')).toBe(1);
    expect(res.peakMiB).toBeLessThan(150);
  });

  it('a limit that is not a positive number is a usage error (exit 2)', async () => {
    const res = await wesMeasured(['jobs', 'get', JOB_ID, '--max-answer-mib', 'lots']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--max-answer-mib must be a positive number of MiB');
  });
});
