// The submit body as published (metadata, priority, a closed extra_data, reserved fields) and
// the reference server's job list `GET /api/v2/jobs?status=&limit=` (on self-hosted by default,
// switchable on any deployment with `jobList`).
import { describe, expect, it } from 'vitest';
import reference from './reference/v2-proxy.json' with { type: 'json' };
import { getJson, imageWorkflow, postJson, startFast, submitJob, useDevServer, waitForJob, type Json } from '../helpers/dev-server.js';

function submitBody(server: Parameters<typeof postJson>[0], body: Json) {
  return postJson(server, '/api/v2/jobs', { workflow: imageWorkflow({ steps: 1 }), ...body });
}

describe('submit body as published (cloud; the self-hosted proxy\'s metadata)', () => {
  const ctx = useDevServer();
  const proxy = useDevServer({ deployment: 'self-hosted' });

  it('Comfy Cloud refuses any metadata (422 metadata_not_supported), makes nothing and releases the key', async () => {
    for (const metadata of ['a label', { team: 'x' }]) {
      const before = ctx.server.state.engine.list().length;
      const res = await postJson(ctx.server, '/api/v2/jobs', { workflow: imageWorkflow({ steps: 1 }), metadata }, { 'idempotency-key': 'cloud-meta-key' });
      expect([res.status, res.body.error.code]).toEqual([422, 'metadata_not_supported']);
      expect(ctx.server.state.engine.list().length).toBe(before);
    }
    const again = await postJson(ctx.server, '/api/v2/jobs', { workflow: imageWorkflow({ steps: 1 }) }, { 'idempotency-key': 'cloud-meta-key' });
    expect(again.status).toBe(201);
  });

  it('self-hosted: echoes metadata on the submit answer, every read and the cancel answer; takes an integer priority', async () => {
    const made = await submitBody(proxy.server, { metadata: 'wes key=abc', priority: 3 });
    expect(made.status).toBe(201);
    expect(made.body.metadata).toBe('wes key=abc');
    const done = await waitForJob(proxy.server, made.body.urls.self, ['succeeded']);
    expect(done.metadata).toBe('wes key=abc');
    expect((await postJson(proxy.server, made.body.urls.cancel, {})).body.metadata).toBe('wes key=abc');
    const plain = await submitBody(proxy.server, {});
    expect(plain.body).not.toHaveProperty('metadata');
  });

  it('self-hosted: refuses metadata that is not a string with the reference server\'s envelope, and one over 1 KiB', async () => {
    for (const metadata of [{ label: 'x' }, 7, null]) {
      const res = await submitBody(proxy.server, { metadata });
      expect(res.status).toBe(reference.metadata_refused.status);
      expect(res.body).toEqual(reference.metadata_refused.body);
    }
    expect((await submitBody(proxy.server, { metadata: 'é'.repeat(512) })).status).toBe(201); // 1024 bytes
    const long = await submitBody(proxy.server, { metadata: 'x'.repeat(1025) });
    expect([long.status, long.body.error.code]).toEqual([422, 'invalid_request']);
    expect(long.body.error.message).toMatch(/1024 bytes/);
  });

  it('refuses a priority that is not an integer, and the reserved webhook_url and inputs', async () => {
    for (const body of [{ priority: 1.5 }, { priority: 'high' }, { webhook_url: 'http://x' }, { inputs: {} }]) {
      const res = await submitBody(ctx.server, body);
      expect([JSON.stringify(body), res.status, res.body.error.code]).toEqual([JSON.stringify(body), 422, 'invalid_request']);
    }
  });

  it('takes extra_data with only the partner key under its real name; anything else is 400 invalid_request as the reference server says it', async () => {
    expect((await submitBody(ctx.server, { extra_data: { api_key_comfy_org: 'k' } })).status).toBe(201);
    expect((await submitBody(ctx.server, { extra_data: {} })).status).toBe(201);
    // The interface's neutral name is what the reference server was seen to refuse, in these words
    // (recordings/engine-userdata.json, 2026-11-28).
    const refused = await submitBody(ctx.server, { extra_data: { api_key_service_org: 'k' } });
    expect([refused.status, refused.body]).toEqual([reference.extra_data_refused.status, reference.extra_data_refused.body]);
    const nullKey = await submitBody(ctx.server, { extra_data: { api_key_comfy_org: null } });
    expect([nullKey.status, nullKey.body.error.message]).toEqual([400, "'extra_data.api_key_comfy_org' must be a string."]);
    for (const extra_data of [{ unknown_field: 'x' }, 'text', [1], { api_key_comfy_org: 5 }]) {
      const res = await submitBody(ctx.server, { extra_data });
      expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
    }
  });

  it('Comfy Cloud lists no jobs: GET /api/v2/jobs is 501 not_implemented', async () => {
    const res = await getJson(ctx.server, '/api/v2/jobs');
    expect([res.status, res.body.error.code]).toEqual([501, 'not_implemented']);
  });
});

describe('the job list (self-hosted, as the reference server)', () => {
  // A cancel that works stops the running job each test leaves behind.
  const ctx = useDevServer({ deployment: 'self-hosted', stepMs: 5, cancel: 'effective' });

  it('lists newest first with metadata, filters by status, caps by limit and says when it cut', async () => {
    const made: Json[] = [];
    for (let i = 0; i < 3; i++) made.push((await submitBody(ctx.server, { metadata: `list ${i}` })).body);
    for (const job of made) await waitForJob(ctx.server, job.urls.self, ['succeeded']);
    const running = (await postJson(ctx.server, '/api/v2/jobs', { workflow: imageWorkflow({ steps: 100 }), metadata: 'list running' })).body;
    await waitForJob(ctx.server, running.urls.self, ['running']);

    const all = await getJson(ctx.server, '/api/v2/jobs');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['jobs', 'truncated']);
    expect(all.body.jobs.map((j: Json) => j.metadata)).toEqual(['list running', 'list 2', 'list 1', 'list 0']);
    expect(all.body.truncated).toBe(false);
    expect(Object.keys(all.body.jobs[1]).sort()).toEqual(Object.keys(reference.list.body.jobs[1]!).sort());

    // A full page is not "truncated" on the reference server, however many older jobs there are.
    const two = await getJson(ctx.server, '/api/v2/jobs?limit=2');
    expect([two.body.jobs.length, two.body.truncated]).toEqual([2, false]);
    const succeeded = await getJson(ctx.server, '/api/v2/jobs?status=succeeded&limit=100');
    expect(succeeded.body.jobs.map((j: Json) => j.metadata)).toEqual(['list 2', 'list 1', 'list 0']);
    const active = await getJson(ctx.server, '/api/v2/jobs?status=running');
    expect(active.body.jobs.map((j: Json) => j.id)).toEqual([running.id]);
    await postJson(ctx.server, running.urls.cancel, {});
  });

  it('refuses an unknown status and a limit outside 1..100 with 400 invalid_request', async () => {
    for (const query of ['status=done', 'limit=0', 'limit=101', 'limit=ten', 'limit=1.5']) {
      const res = await getJson(ctx.server, `/api/v2/jobs?${query}`);
      expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'invalid_request']);
    }
  });
});

describe('the job list\'s `truncated`, as the reference server sets it (recordings/v2-proxy-edges.json)', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', stepMs: 1000, maxQueue: 1000 });

  it('true only when the 500-record scan stopped a status-filtered list before `limit` was filled', async () => {
    const make = (n: number) => {
      for (let i = 0; i < n; i++) ctx.server.state.engine.submit(imageWorkflow({ steps: 1 }), undefined, 'v2');
    };
    make(470);
    const read = async (query: string) => (await getJson(ctx.server, `/api/v2/jobs?${query}`)).body as { jobs: Json[]; truncated: boolean };
    // As recorded with 470 jobs: a full page says false; a filter that scanned them all, false.
    expect(await read('limit=100').then((b) => [b.jobs.length, b.truncated])).toEqual([100, false]);
    expect(await read('status=failed&limit=100').then((b) => [b.jobs.length, b.truncated])).toEqual([0, false]);
    make(35);
    // With 505: the scan cap stops the filtered walks (0 jobs, true); the full pages still say false.
    expect(await read('status=failed&limit=100').then((b) => [b.jobs.length, b.truncated])).toEqual([0, true]);
    expect(await read('status=succeeded&limit=5').then((b) => [b.jobs.length, b.truncated])).toEqual([0, true]);
    expect(await read('limit=100').then((b) => [b.jobs.length, b.truncated])).toEqual([100, false]);
    expect(await read('status=queued&limit=2').then((b) => [b.jobs.length, b.truncated])).toEqual([2, false]);
  });
});

describe('the job list switch', () => {
  it('turns the list on for cloud and off for self-hosted', async () => {
    const cloud = await startFast({ jobList: true });
    const selfHosted = await startFast({ deployment: 'self-hosted', jobList: false });
    try {
      const job = (await submitJob(cloud, imageWorkflow({ steps: 1 }))).body;
      const listed = await getJson(cloud, '/api/v2/jobs');
      expect(listed.body.jobs.map((j: Json) => j.id)).toEqual([job.id]);
      // Off, the path is unknown to the self-hosted server: its plain-text routing 404.
      const off = await getJson(selfHosted, '/api/v2/jobs');
      expect([off.status, off.text]).toEqual([404, '404: Not Found']);
    } finally {
      await cloud.close();
      await selfHosted.close();
    }
  });

  it('lists only the deployment\'s own jobs on serverless', async () => {
    const server = await startFast({ deployment: 'serverless', jobList: true });
    try {
      const prefix = '/deployment/dev-deployment';
      const job = (await submitJob(server, imageWorkflow({ steps: 1 }), { prefix })).body;
      expect((await getJson(server, `${prefix}/api/v2/jobs`)).body.jobs.map((j: Json) => j.id)).toEqual([job.id]);
      expect((await getJson(server, '/deployment/other/api/v2/jobs')).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('serverless: labels as a map, stored records paged by cursor and filtered by label', () => {
  const ctx = useDevServer({ deployment: 'serverless', stepMs: 1, maxQueue: 1000 });
  const prefix = '/deployment/dev-deployment';
  const submitLabels = (metadata: unknown) => postJson(ctx.server, `${prefix}/api/v2/jobs`, { workflow: imageWorkflow({ steps: 1 }), metadata });

  it('takes a map of string labels; refuses others with 422 metadata_invalid naming the key or the count', async () => {
    const made = await submitLabels({ team: 'vision', 'run.id': '7' });
    expect(made.status).toBe(201);
    expect(made.body.metadata).toEqual({ team: 'vision', 'run.id': '7' });
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
    for (const [metadata, names] of [['a string', 'object'], [many, '17'], [{ 'bad key!': 'v' }, 'bad key!'], [{ n: 5 }, "'n'"], [{ c: 'line\nbreak' }, "'c'"], [{ b: 'x\u202ey' }, "'b'"]] as const) {
      const res = await submitLabels(metadata);
      expect([res.status, res.body.error.code]).toEqual([422, 'metadata_invalid']);
      expect(res.body.error.message).toContain(names);
    }
  });

  it('lists stored records newest first, a page at a time, filtered by up to three labels', async () => {
    const tagged = [];
    for (let i = 0; i < 3; i++) tagged.push((await submitLabels({ batch: 'b9', i: String(i) })).body.id);
    for (let i = 0; i < 150; i++) ctx.server.state.engine.submit(imageWorkflow({ steps: 1 }), undefined, 'v2', { deploymentId: 'dev-deployment', metadata: { owner: 'other' } });
    const list = (query: string) => getJson(ctx.server, `${prefix}/api/v2/jobs?${query}`);
    const first = await list('limit=100');
    expect(Object.keys(first.body).sort()).toEqual(['jobs', 'next_cursor']);
    expect(Object.keys(first.body.jobs[0]).sort()).toEqual(['create_time', 'deployment_id', 'id', 'metadata', 'status', 'update_time']);
    expect(first.body.jobs[0].create_time).toMatch(/\.\d{9}Z$/);
    // A filtered page scans 100 records: the first is empty while more follow; the walk finds all three once.
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list(`metadata%5Bbatch%5D=b9${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.jobs.map((j: Json) => j.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual([...tagged].reverse());
    const two = await list('metadata[batch]=b9&metadata[i]=1');
    expect(two.body).toEqual({ jobs: [], next_cursor: expect.any(String) });
    expect((await list(`metadata[batch]=b9&metadata[i]=1&cursor=${two.body.next_cursor}`)).body.jobs.map((j: Json) => j.id)).toEqual([tagged[1]]);
    for (const query of ['metadata[a]=1&metadata[b]=2&metadata[c]=3&metadata[d]=4', 'metadata[a]=1&metadata[a]=2', 'metadata[bad key]=1', 'metadata[a]=x;y', 'metadata[a]=%zz']) {
      const res = await list(query);
      expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'invalid_metadata_filter']);
    }
    const bad = await list('cursor=not-a-cursor');
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_cursor']);
  });
});
