import { request } from 'node:http';
import { createBLAKE3 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import {
  addFaults,
  bytesWorkflow,
  getJson,
  requestCounts,
  startFast,
  submitJob,
  useDevServer,
  v2Auth,
  waitForJob,
  type Json,
} from '../helpers/dev-server.js';

interface RawAnswer {
  status: number | null;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  complete: boolean; // the body ended normally
  error: string | null;
}

/** A raw GET that reports what really came over the wire, cut or not. */
function rawGet(url: string, headers: Record<string, string> = {}, timeoutMs = 2000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const answer: RawAnswer = { status: null, headers: {}, body: Buffer.alloc(0), complete: false, error: null };
    const chunks: Buffer[] = [];
    const done = (): void => {
      answer.body = Buffer.concat(chunks);
      resolve(answer);
    };
    const req = request(url, { headers }, (res) => {
      answer.status = res.statusCode ?? null;
      answer.headers = res.headers;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        answer.complete = true;
      });
      res.on('error', (err) => {
        answer.error ??= err.message;
      });
      res.on('close', done);
    });
    req.setTimeout(timeoutMs, () => {
      answer.error = 'timeout';
      req.destroy();
    });
    req.on('error', (err) => {
      answer.error ??= err.message;
      done();
    });
    req.end();
  });
}

describe('faults', () => {
  const ctx = useDevServer({ faults: true });
  let output: Json;

  it('needs a job output for the body faults', async () => {
    const done = await waitForJob(ctx.server, (await submitJob(ctx.server, bytesWorkflow(200_000))).body.urls.self, ['succeeded']);
    output = done.outputs[0];
    expect(output.size_bytes).toBe(200_000);
  });

  it('status: scripts the next N answers with status, body and Retry-After', async () => {
    await addFaults(ctx.server, {
      match: 'GET /api/v2/jobs/*',
      count: 2,
      action: 'status',
      status: 429,
      retry_after: 3,
      body: { error: { code: 'rate_limited', message: 'slow down' } },
    });
    for (let i = 0; i < 2; i++) {
      const res = await getJson(ctx.server, '/api/v2/jobs/any');
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('3');
      expect(res.body.error.code).toBe('rate_limited');
      expect(res.headers.get('x-comfy-request-id')).toMatch(/^req_/);
    }
    expect((await getJson(ctx.server, '/api/v2/jobs/any')).status).toBe(404);
  });

  it('status: a 500 upstream_error on another route, matched by method', async () => {
    await addFaults(ctx.server, [{ match: 'POST /api/v2/jobs', action: 'status', status: 500, body: { error: { code: 'upstream_error', message: 'x' } } }]);
    expect((await getJson(ctx.server, '/api/v2/jobs')).status).toBe(501); // GET does not match: the cloud surface's own answer (it has no job list)
    const res = await submitJob(ctx.server, bytesWorkflow(1));
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('upstream_error');
  });

  it('delay: holds the answer back, then answers normally', async () => {
    await addFaults(ctx.server, { match: 'GET /api/v2/**', action: 'delay', delay_ms: 150 });
    const started = Date.now();
    const res = await getJson(ctx.server, '/api/v2/jobs/x');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(res.status).toBe(404);
  });

  it('drop: closes the connection before any answer', async () => {
    await addFaults(ctx.server, { match: 'GET /api/v2/jobs/*', action: 'drop' });
    const answer = await rawGet(`${ctx.server.url}/api/v2/jobs/x`, v2Auth(ctx.server));
    expect(answer.status).toBeNull();
    expect(answer.error).toBeTruthy();
    expect((await getJson(ctx.server, '/api/v2/jobs/x')).status).toBe(404);
  });

  it('drop with after_bytes and truncate cut a real download short (signed listener)', async () => {
    await addFaults(ctx.server, [
      { match: 'GET /signed/**', action: 'drop', after_bytes: 1000 },
      { match: 'GET /signed/**', action: 'truncate' },
    ]);
    const dropped = await rawGet(output.url);
    expect(dropped.status).toBe(200);
    expect(dropped.headers['content-length']).toBe('200000');
    expect(dropped.body.length).toBe(1000);
    expect(dropped.complete).toBe(false);
    const truncated = await rawGet(output.url);
    expect(truncated.status).toBe(200);
    expect(truncated.headers['content-length']).toBe('200000');
    expect(truncated.body.length).toBe(100_000); // default: half the declared length
    expect(truncated.complete).toBe(false);
    const whole = await rawGet(output.url);
    expect(whole.body.length).toBe(200_000);
    expect(whole.complete).toBe(true);
  });

  it('truncate: also cuts a JSON answer', async () => {
    await addFaults(ctx.server, { match: 'GET /api/v2/jobs/*', action: 'truncate', after_bytes: 5 });
    const answer = await rawGet(`${ctx.server.url}/api/v2/jobs/x`, v2Auth(ctx.server));
    expect(answer.status).toBe(404);
    expect(answer.body.toString()).toBe('{"err');
    expect(answer.complete).toBe(false);
  });

  it('stall: sends headers and then nothing until the client gives up', async () => {
    await addFaults(ctx.server, { match: 'GET /signed/**', action: 'stall' });
    const started = Date.now();
    const answer = await rawGet(output.url, {}, 300);
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(0);
    expect(answer.error).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('corrupt: flips body bytes so the hash check fails', async () => {
    await addFaults(ctx.server, { match: 'GET /signed/**', action: 'corrupt' });
    const answer = await rawGet(output.url);
    expect(answer.body.length).toBe(200_000);
    expect(answer.complete).toBe(true);
    const hasher = await createBLAKE3();
    hasher.init();
    hasher.update(answer.body);
    expect(`blake3:${hasher.digest('hex')}`).not.toBe(output.hash);
    const clean = await rawGet(output.url);
    const second = await createBLAKE3();
    second.init();
    second.update(clean.body);
    expect(`blake3:${second.digest('hex')}`).toBe(output.hash);
  });

  it('lists, validates and clears scripted faults', async () => {
    const bad = await fetch(`${ctx.server.url}/__dev/faults`, { method: 'POST', body: JSON.stringify({ match: 'nope', action: 'status' }) });
    expect(bad.status).toBe(400);
    await addFaults(ctx.server, { match: 'GET /api/v2/**', action: 'status', status: 503, count: 5 });
    const listed = (await (await fetch(`${ctx.server.url}/__dev/faults`)).json()) as Json;
    expect(listed.pending).toHaveLength(1);
    expect(listed.pending[0].count).toBe(5);
    expect((await fetch(`${ctx.server.url}/__dev/faults`, { method: 'DELETE' })).status).toBe(200);
    expect((await getJson(ctx.server, '/api/v2/jobs/x')).status).toBe(404);
  });

  it('counts requests per method and path, and resets the counts', async () => {
    expect((await fetch(`${ctx.server.url}/__dev/requests`, { method: 'DELETE' })).status).toBe(204);
    await getJson(ctx.server, '/api/v2/jobs/abc');
    await getJson(ctx.server, '/api/v2/jobs/abc');
    await fetch(output.url, { method: 'HEAD' });
    const counts = await requestCounts(ctx.server);
    expect(counts['GET /api/v2/jobs/abc']).toBe(2);
    expect(counts[`HEAD ${new URL(output.url).pathname}`]).toBe(1);
    expect(Object.keys(counts).some((k) => k.includes('__dev'))).toBe(false);
  });
});

describe('faults switched off', () => {
  it('refuses the control route with 404 and applies nothing', async () => {
    const server = await startFast({ faults: false });
    try {
      const res = await fetch(`${server.url}/__dev/faults`, { method: 'POST', body: JSON.stringify({ match: 'GET /**', action: 'drop' }) });
      expect(res.status).toBe(404);
      expect((await fetch(`${server.url}/__dev/requests`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
