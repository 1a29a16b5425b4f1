// Single-use Idempotency-Keys on submit and upload (published contract, the reference server's
// answers): claimed on arrival, any later request with the key refused 422 and never executed,
// released when the request definitively made nothing, kept when the outcome is unknown, scoped
// per credential, expiring after idempotencyTtlMs. Also the faults that put a client in doubt.
import { describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import reference from './reference/v2-proxy.json' with { type: 'json' };
import {
  addFaults,
  blake3,
  getJson,
  imageWorkflow,
  postJson,
  startFast,
  submitJob,
  uploadAsset,
  useDevServer,
  waitForJob,
  type Json,
} from '../helpers/dev-server.js';

/** Every job the server holds (the engine's own record, whatever the deployment lists). */
function jobCount(server: DevServerHandle): number {
  return server.state.engine.list().filter((job) => job.via === 'v2').length;
}

/** A submit whose connection ends without an answer: the fetch fails. */
async function submitLost(server: DevServerHandle, key: string): Promise<unknown> {
  return submitJob(server, imageWorkflow({ steps: 1 }), { key }).then(
    () => null,
    (err: unknown) => err,
  );
}

describe('single-use Idempotency-Key on POST /api/v2/jobs', () => {
  const ctx = useDevServer({ faults: true });

  it('refuses the same key again, same body or not, with the reference server\'s envelope, and makes no job', async () => {
    const first = await submitJob(ctx.server, imageWorkflow({ seed: 1 }), { key: 'single-1' });
    expect(first.status).toBe(201);
    const before = jobCount(ctx.server);
    for (const seed of [1, 2]) {
      const again = await submitJob(ctx.server, imageWorkflow({ seed }), { key: 'single-1' });
      expect(again.status).toBe(reference.key_reuse.status);
      expect(again.body).toEqual(reference.key_reuse.body);
    }
    expect(jobCount(ctx.server)).toBe(before);
    expect(reference.key_reuse.body.error.message).not.toMatch(/different/);
  });

  it('releases the key after a validation refusal (400/422), so a corrected retry with it runs', async () => {
    const refused = [
      { workflow: { '1': { class_type: 'Nope', inputs: {} } } },
      { workflow: imageWorkflow(), metadata: 7 },
      { workflow: imageWorkflow(), extra_data: { other: 1 } },
      { notAWorkflow: true },
    ];
    for (const [i, body] of refused.entries()) {
      const res = await postJson(ctx.server, '/api/v2/jobs', body, { 'idempotency-key': `released-${i}` });
      expect([i, Math.floor(res.status / 100)]).toEqual([i, 4]);
      const retry = await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: `released-${i}` });
      expect([i, retry.status]).toEqual([i, 201]);
    }
    const unreadable = await fetch(`${ctx.server.url}/api/v2/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.server.apiKey}`, 'idempotency-key': 'released-json' },
      body: '{not json',
    });
    expect(unreadable.status).toBe(400);
    expect((await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: 'released-json' })).status).toBe(201);
  });

  it('releases the key after 402 insufficient_credits and 429 queue_full', async () => {
    const partner = {
      '1': { class_type: 'PartnerCall', inputs: { prompt: 'a cat' } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'p' } },
    };
    const poor = await submitJob(ctx.server, partner, { key: 'released-402', extra_data: { api_key_comfy_org: 'insufficient-1' } });
    expect(poor.status).toBe(402);
    expect((await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: 'released-402' })).status).toBe(201);

    const server = await startFast({ maxQueue: 0 });
    try {
      const full = await submitJob(server, imageWorkflow(), { key: 'released-429' });
      expect([full.status, full.body.error.code]).toEqual([429, 'queue_full']);
      server.state.options.maxQueue = 10;
      expect((await submitJob(server, imageWorkflow({ steps: 1 }), { key: 'released-429' })).status).toBe(201);
    } finally {
      await server.close();
    }
  });

  it('keeps the key when the answer was lost after the job was made (fault `lose`): one job, and the retry is refused', async () => {
    await addFaults(ctx.server, { match: 'POST /api/v2/jobs', action: 'lose' });
    const before = jobCount(ctx.server);
    expect(await submitLost(ctx.server, 'lost-1')).toBeInstanceOf(Error);
    expect(jobCount(ctx.server)).toBe(before + 1);
    const retry = await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: 'lost-1' });
    expect([retry.status, retry.body.error.code]).toEqual([422, 'idempotency_key_reuse']);
    expect(jobCount(ctx.server)).toBe(before + 1);
  });

  it('keeps the key when the job was made and the answer was a 5xx (fault `after`)', async () => {
    await addFaults(ctx.server, { match: 'POST /api/v2/jobs', action: 'after', status: 502, body: { error: { code: 'upstream_error', message: 'bad gateway', details: null } } });
    const before = jobCount(ctx.server);
    const answered = await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: 'after-1' });
    expect([answered.status, answered.body.error.code]).toEqual([502, 'upstream_error']);
    expect(jobCount(ctx.server)).toBe(before + 1);
    const made = ctx.server.state.engine.list().at(-1)!;
    await waitForJob(ctx.server, `/api/v2/jobs/${made.id}`, ['succeeded']);
    const retry = await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: 'after-1' });
    expect([retry.status, retry.body.error.code]).toEqual([422, 'idempotency_key_reuse']);
  });

  it('answers 503 upstream_error with the engine down, claiming the key and making no job; with it up again the key stays claimed', async () => {
    const down = await fetch(`${ctx.server.url}/__dev/engine`, { method: 'POST', body: JSON.stringify({ state: 'down' }) });
    expect(await down.json()).toEqual({ state: 'down' });
    const before = jobCount(ctx.server);
    const refused = await submitJob(ctx.server, imageWorkflow(), { key: 'engine-down' });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ error: { code: 'upstream_error', message: 'unexpected failure in a backing service', details: null } });
    expect(jobCount(ctx.server)).toBe(before);
    expect(await (await fetch(`${ctx.server.url}/__dev/engine`)).json()).toEqual({ state: 'down' });
    await fetch(`${ctx.server.url}/__dev/engine`, { method: 'POST', body: JSON.stringify({ state: 'up' }) });
    const again = await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: 'engine-down' });
    expect([again.status, again.body.error.code]).toEqual([422, 'idempotency_key_reuse']);
    expect((await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: 'engine-up' })).status).toBe(201);
    const bad = await fetch(`${ctx.server.url}/__dev/engine`, { method: 'POST', body: JSON.stringify({ state: 'sideways' }) });
    expect(bad.status).toBe(400);
  });

  it('keeps the key after a handler failure (500)', async () => {
    const engine = ctx.server.state.engine;
    const submit = engine.submit.bind(engine);
    engine.submit = () => {
      throw new Error('the engine fell over');
    };
    try {
      const failed = await submitJob(ctx.server, imageWorkflow(), { key: 'failed-500' });
      expect([failed.status, failed.body.error.code]).toEqual([500, 'upstream_error']);
    } finally {
      engine.submit = submit;
    }
    const retry = await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: 'failed-500' });
    expect([retry.status, retry.body.error.code]).toEqual([422, 'idempotency_key_reuse']);
  });

  it('scopes keys per credential', async () => {
    const server = await startFast({ deployment: 'self-hosted' });
    try {
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      expect((await postJson(server, '/api/v2/jobs', { workflow: imageWorkflow({ steps: 1 }) }, { ...as('alice'), 'idempotency-key': 'shared' })).status).toBe(201);
      expect((await postJson(server, '/api/v2/jobs', { workflow: imageWorkflow({ steps: 1 }) }, { ...as('bob'), 'idempotency-key': 'shared' })).status).toBe(201);
      expect((await postJson(server, '/api/v2/jobs', { workflow: imageWorkflow({ steps: 1 }) }, { ...as('alice'), 'idempotency-key': 'shared' })).status).toBe(422);
    } finally {
      await server.close();
    }
  });
});

describe('Idempotency-Key on a serverless deployment that cannot take work', () => {
  const prefix = '/deployment/dev-deployment';
  const ctx = useDevServer({ deployment: 'serverless' });

  it('releases the key after deployment_not_ready, deployment_unavailable and deployment_stopped', async () => {
    for (const state of ['not_ready', 'unavailable', 'stopped'] as const) {
      ctx.server.state.options.deploymentState = state;
      const refused = await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: `deploy-${state}`, prefix });
      expect([state, refused.body.error.code]).toEqual([state, `deployment_${state}`]);
      ctx.server.state.options.deploymentState = 'ready';
      expect([state, (await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { key: `deploy-${state}`, prefix })).status]).toEqual([state, 201]);
    }
  });
});

describe('Idempotency-Key expiry', () => {
  it('frees a key after idempotencyTtlMs', async () => {
    // Long enough that the second submit comes within it on a loaded machine (at 80 ms it once came after).
    const server = await startFast({ idempotencyTtlMs: 1500 });
    try {
      const firstAt = Date.now();
      expect((await submitJob(server, imageWorkflow({ steps: 1 }), { key: 'ttl' })).status).toBe(201);
      expect((await submitJob(server, imageWorkflow({ steps: 1 }), { key: 'ttl' })).status).toBe(422);
      await new Promise((r) => setTimeout(r, firstAt + 1600 - Date.now()));
      expect((await submitJob(server, imageWorkflow({ steps: 1 }), { key: 'ttl' })).status).toBe(201);
    } finally {
      await server.close();
    }
  });
});

describe('single-use Idempotency-Key on POST /api/v2/assets', () => {
  const ctx = useDevServer({ faults: true });
  const upload = (bytes: Buffer, key: string, fields: Record<string, string> = { file_path: 'k.bin' }) =>
    uploadAsset(ctx.server, bytes, fields, { 'idempotency-key': key });

  it('refuses the key again (same bytes or not) and mints nothing', async () => {
    const bytes = Buffer.from(`key-${Math.random()}`);
    const first = await upload(bytes, 'up-1');
    expect(first.status).toBe(201);
    for (const again of [bytes, Buffer.from('other')]) {
      const res = await upload(again, 'up-1');
      expect(res.status).toBe(422);
      expect(res.body).toEqual(reference.key_reuse.body);
    }
  });

  it('releases the key after a refusal (invalid_request, hash_mismatch)', async () => {
    const bytes = Buffer.from(`release-${Math.random()}`);
    expect((await upload(bytes, 'up-2', {})).status).toBe(422);
    expect((await upload(bytes, 'up-2', { file_path: 'a.bin', expected_hash: `blake3:${'0'.repeat(64)}` })).status).toBe(409);
    expect((await upload(bytes, 'up-2')).status).toBe(201);
  });

  it('keeps the key when the answer was lost after the record was made (fault `lose`)', async () => {
    await addFaults(ctx.server, { match: 'POST /api/v2/assets', action: 'lose' });
    const bytes = Buffer.from(`lost-upload-${Math.random()}`);
    await expect(upload(bytes, 'up-3')).rejects.toThrow();
    const hash = await blake3(bytes);
    const head = await fetch(`${ctx.server.url}/api/v2/assets/by-hash/${hash}`, { method: 'HEAD', headers: { authorization: `Bearer ${ctx.server.apiKey}` } });
    expect(head.status).toBe(200);
    const retry = await upload(bytes, 'up-3');
    expect([retry.status, (retry.body as Json).error.code]).toEqual([422, 'idempotency_key_reuse']);
  });
});

describe('the `after` fault', () => {
  const ctx = useDevServer({ faults: true });

  it('needs a status, and answers it after the real handler ran (a job made, a 5xx said)', async () => {
    const refused = await fetch(`${ctx.server.url}/__dev/faults`, { method: 'POST', body: JSON.stringify({ match: 'POST /api/v2/jobs', action: 'after' }) });
    expect(refused.status).toBe(400);
    await addFaults(ctx.server, { match: 'GET /api/v2/jobs/*', action: 'after', status: 503, retry_after: 2 });
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body;
    const res = await fetch(`${ctx.server.url}${job.urls.self}`, { headers: { authorization: `Bearer ${ctx.server.apiKey}` } });
    expect([res.status, res.headers.get('retry-after'), await res.text()]).toEqual([503, '2', '']);
    expect((await getJson(ctx.server, job.urls.self)).status).toBe(200);
  });
});
