// Closing the HTTP client at the end of a command: undici destroys each kept-alive socket with a
// ClientDestroyedError, and Node's stream destroy reads its stack at once, which made V8 compute
// the line ends of undici's whole chunk (~4 M instructions, 2 % of `jobs get`). close() captures
// no frames for it, and leaves the process's stack trace limit as it found it.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('HttpClient.close', () => {
  it('formats no stack for the errors that destroy its idle sockets, and restores the stack trace limit', async () => {
    const s = await startTestServer((_req, res) => json(res, 200, { ok: true }));
    servers.push(s);
    const client = new HttpClient({ baseUrl: s.url, routerUrl: s.url, apiKey: 'key-A-123456789', retries: 0 });
    expect((await client.json<{ ok: boolean }>({ family: 'jobs', url: '/api/v2/jobs/x' })).body.ok).toBe(true);
    const formatted: Array<{ message: string; frames: number }> = [];
    const previous = Error.prepareStackTrace;
    const limit = Error.stackTraceLimit;
    Error.prepareStackTrace = (err, frames) => {
      formatted.push({ message: String((err as Error).message), frames: frames.length });
      return previous ? previous(err, frames) : `${String(err)}`;
    };
    try {
      await client.close();
    } finally {
      Error.prepareStackTrace = previous;
    }
    // The socket was destroyed with undici's error (its stack read), and that stack has no frames.
    const destroyed = formatted.filter((f) => /destroyed/i.test(f.message));
    expect(destroyed.length).toBeGreaterThan(0);
    expect(destroyed.every((f) => f.frames === 0)).toBe(true);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
