import { describe, expect, it } from 'vitest';
import {
  bytesWorkflow,
  getJson,
  imageWorkflow,
  type Json,
  postJson,
  startFast,
  streamedProgress,
  submitJob,
  useDevServer,
  waitForJob,
} from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';

const JOB_FIELDS = ['id', 'status', 'created_at', 'started_at', 'completed_at', 'expires_at', 'queue_position', 'progress', 'outputs', 'error', 'metrics', 'urls'];
const OUTPUT_FIELDS = ['node_id', 'name', 'type', 'content_type', 'size_bytes', 'id', 'hash', 'url', 'url_expires_at', 'job_id'];

describe('job API v2: submit and read', () => {
  const ctx = useDevServer();

  it('submits (201 + Location) and reports every field of the Job', async () => {
    const { status, headers, body } = await submitJob(ctx.server, imageWorkflow());
    expect(status).toBe(201);
    expect(headers.get('location')).toBe(body.urls.self);
    for (const field of JOB_FIELDS) expect(body).toHaveProperty(field);
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.urls).toEqual({
      self: `/api/v2/jobs/${body.id}`,
      events: `/api/v2/jobs/${body.id}/events`,
      cancel: `/api/v2/jobs/${body.id}/cancel`,
    });
    expect(body.metrics).toEqual({ queue_ms: null, execution_ms: null, output_bytes: null });
    const done = await waitForJob(ctx.server, body.urls.self, ['succeeded']);
    expect(done.progress).toMatchObject({ value: 1, nodes_done: 3, nodes_total: 3 });
    expect(done.metrics.queue_ms).toBeTypeOf('number');
    expect(done.metrics.execution_ms).toBeTypeOf('number');
    expect(done.started_at).not.toBeNull();
    expect(done.completed_at).not.toBeNull();
    expect(done.outputs).toHaveLength(1);
    for (const field of OUTPUT_FIELDS) expect(done.outputs[0]).toHaveProperty(field);
    expect(done.outputs[0]).toMatchObject({ node_id: '3', name: 'wes_00001_.png', type: 'image', content_type: 'image/png', job_id: body.id });
    expect(done.outputs[0].hash).toMatch(/^blake3:[0-9a-f]{64}$/);
  });

  it('returns 404 job_not_found for an unknown job (Comfy Cloud names the entity)', async () => {
    const res = await getJson(ctx.server, '/api/v2/jobs/00000000-0000-0000-0000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('job_not_found');
  });

  it('signs output URLs at read time', async () => {
    const { body } = await submitJob(ctx.server, imageWorkflow({ steps: 1 }));
    const done = await waitForJob(ctx.server, body.urls.self, ['succeeded']);
    await new Promise((r) => setTimeout(r, 5));
    const later = (await getJson(ctx.server, body.urls.self)).body;
    expect(later.outputs[0].url).not.toBe(done.outputs[0].url);
    expect(Date.parse(later.outputs[0].url_expires_at)).toBeGreaterThan(Date.parse(done.outputs[0].url_expires_at));
    expect(new URL(later.outputs[0].url).origin).toBe(ctx.server.signedOrigin);
    expect(ctx.server.signedOrigin).not.toBe(ctx.server.url);
  });

  it('produces real, deterministic PNGs and does not sanitize names', async () => {
    const workflow = imageWorkflow({ seed: 42, prefix: '../odd/name' });
    workflow['4'] = { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: '../odd/name' } };
    const a = await waitForJob(ctx.server, (await submitJob(ctx.server, workflow)).body.urls.self, ['succeeded']);
    const b = await waitForJob(ctx.server, (await submitJob(ctx.server, workflow)).body.urls.self, ['succeeded']);
    expect(a.outputs.map((o: any) => o.name)).toEqual(['../odd/name_00001_.png', '../odd/name_00001_.png']);
    expect(a.outputs[0].hash).toBe(b.outputs[0].hash);
    const png = Buffer.from(await (await fetch(a.outputs[0].url)).arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(16);
    expect(png.readUInt32BE(20)).toBe(12);
    const other = await waitForJob(ctx.server, (await submitJob(ctx.server, imageWorkflow({ seed: 43 }))).body.urls.self, ['succeeded']);
    expect(other.outputs[0].hash).not.toBe(a.outputs[0].hash);
  });

  it('commits SaveText and SaveBytes outputs with their kinds', async () => {
    const workflow = { '1': { class_type: 'SaveText', inputs: { text: 'hello' } }, '2': bytesWorkflow(1000, 'audio/wav')['1'] };
    const done = await waitForJob(ctx.server, (await submitJob(ctx.server, workflow)).body.urls.self, ['succeeded']);
    const byNode = Object.fromEntries(done.outputs.map((o: any) => [o.node_id, o]));
    expect(byNode['1']).toMatchObject({ name: 'text_00001_.txt', type: 'text', size_bytes: 5 });
    expect(await (await fetch(byNode['1'].url)).text()).toBe('hello');
    expect(byNode['2']).toMatchObject({ name: 'bytes_00001_.wav', type: 'audio', content_type: 'audio/wav', size_bytes: 1000 });
  });
});

describe('job API v2: refusals', () => {
  const ctx = useDevServer({ maxQueue: 2, stepMs: 20 });

  it('refuses UI-format workflows', async () => {
    const res = await submitJob(ctx.server, { nodes: [], links: [] });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('workflow_format_ui');
  });

  it('reports every bad node at once', async () => {
    const workflow = {
      '1': { class_type: 'EmptyImage', inputs: { width: 16, height: 16, batch_size: 1, color: 0 } },
      '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 1000, seed: 1, denoise: 1, sampler_name: 'nope' } },
      '3': { class_type: 'MysteryNode', inputs: {} },
      '4': { class_type: 'LoraLoader', inputs: {} },
      '5': { class_type: 'Sample', inputs: { image: ['6', 0], steps: 1, seed: 1, denoise: 1, sampler_name: 'euler' } },
      '6': { class_type: 'Sample', inputs: { image: ['5', 0], steps: 1, seed: 1, denoise: 1, sampler_name: 'euler' } },
      '7': { class_type: 'SaveImage', inputs: { images: ['99', 0], filename_prefix: 'x' } },
      '8': { class_type: 'Sample', inputs: { image: ['1', 0], seed: 1, denoise: 1, sampler_name: 'euler' } },
    };
    const res = await submitJob(ctx.server, workflow);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_workflow');
    const errors = res.body.error.details.node_errors;
    const types = (id: string) => errors[id].errors.map((e: any) => e.type);
    expect(types('2')).toEqual(expect.arrayContaining(['value_bigger_than_max', 'value_not_in_list']));
    expect(errors['2'].class_type).toBe('Sample');
    expect(errors['2'].errors.find((e: any) => e.type === 'value_bigger_than_max').details).toMatch(/^steps/);
    expect(types('3')).toEqual(['unknown_node_class']);
    expect(errors['4'].errors[0].message).toMatch(/comfy-core$/);
    expect(types('5')).toContain('dependency_cycle');
    expect(types('6')).toContain('dependency_cycle');
    expect(types('7')).toEqual(['bad_linked_input']);
    expect(types('8')).toEqual(['required_input_missing']);
    expect(res.body.error.details.unknown_node_classes.sort()).toEqual(['LoraLoader', 'MysteryNode']);
    expect(errors['1']).toBeUndefined();
  });

  it('refuses a workflow without a saving node, and a body without a workflow', async () => {
    const none = await submitJob(ctx.server, { '1': { class_type: 'EmptyImage', inputs: { width: 1, height: 1, batch_size: 1, color: 0 } } });
    expect(none.status).toBe(422);
    expect(none.body.error.code).toBe('invalid_workflow');
    expect(none.body.error.message).toMatch(/SaveImage/);
    const bare = await postJson(ctx.server, '/api/v2/jobs', { prompt: {} });
    expect(bare.status).toBe(422);
    expect(bare.body.error.code).toBe('invalid_workflow');
  });

  it('refuses a LoadImage of a file name the input folder lacks, in the engine\'s words', async () => {
    const res = await submitJob(ctx.server, {
      '1': { class_type: 'LoadImage', inputs: { image: 'no-such.png' } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_workflow');
    expect(res.body.error.details.node_errors['1']).toEqual({
      class_type: 'LoadImage',
      errors: [{ type: 'custom_validation_failed', message: 'Custom validation failed for node', details: 'image - Invalid image file: no-such.png' }],
    });
  });

  it('answers 402 insufficient_credits for a partner key without credits', async () => {
    const workflow = {
      '1': { class_type: 'PartnerCall', inputs: { prompt: 'a cat' } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'p' } },
    };
    const res = await submitJob(ctx.server, workflow, { extra_data: { api_key_comfy_org: 'insufficient-org' } });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('insufficient_credits');
  });

  it('answers 429 queue_full with Retry-After past maxQueue', async () => {
    const long = imageWorkflow({ steps: 100 });
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push(await submitJob(ctx.server, long));
    await waitForJob(ctx.server, taken[0]!.body.urls.self, ['running']);
    // one running, two queued: the queue is at its maximum of 2
    const res = await submitJob(ctx.server, long);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('queue_full');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const t of taken) await postJson(ctx.server, t.body.urls.cancel, {});
  });
});

describe('job API v2: state machine', () => {
  const ctx = useDevServer({ stepMs: 15, slots: 1 });

  it('queues with real positions, runs, and cancels from queued and from running via canceling', async () => {
    const first = (await submitJob(ctx.server, imageWorkflow({ steps: 40 }))).body;
    const second = (await submitJob(ctx.server, imageWorkflow({ steps: 40 }))).body;
    const third = (await submitJob(ctx.server, imageWorkflow({ steps: 40 }))).body;
    const running = await waitForJob(ctx.server, first.urls.self, ['running']);
    expect(running.queue_position).toBeNull();
    expect(running.started_at).not.toBeNull();
    expect((await getJson(ctx.server, second.urls.self)).body.queue_position).toBe(0);
    expect((await getJson(ctx.server, third.urls.self)).body.queue_position).toBe(1);

    const canceledQueued = await postJson(ctx.server, third.urls.cancel, {});
    expect(canceledQueued.status).toBe(200);
    expect(canceledQueued.body.status).toBe('canceled');
    expect(canceledQueued.body.started_at).toBeNull();

    const canceling = await postJson(ctx.server, first.urls.cancel, {});
    expect(canceling.body.status).toBe('canceling');
    const again = await postJson(ctx.server, first.urls.cancel, {});
    expect(['canceling', 'canceled']).toContain(again.body.status);
    const canceled = await waitForJob(ctx.server, first.urls.self, ['canceled']);
    expect(canceled.completed_at).not.toBeNull();
    // the next job starts once the slot is free
    await waitForJob(ctx.server, second.urls.self, ['running']);
    await postJson(ctx.server, second.urls.cancel, {});
    const idempotent = await postJson(ctx.server, third.urls.cancel, {});
    expect(idempotent.status).toBe(200);
    expect(idempotent.body.status).toBe('canceled');
  });

  it('fails with a Python-like traceback when a node raises', async () => {
    const workflow = {
      '1': { class_type: 'Fail', inputs: { message: 'boom on purpose' } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'never' } },
    };
    const done = await waitForJob(ctx.server, (await submitJob(ctx.server, workflow)).body.urls.self, ['failed']);
    expect(done.error).toMatchObject({ code: 'execution_error', message: 'boom on purpose', node_id: '1', class_type: 'Fail' });
    expect(done.error.traceback).toMatch(/^Traceback \(most recent call last\):/);
    expect(done.error.traceback).toMatch(/RuntimeError: boom on purpose$/);
    expect(done.error.node_errors).toBeUndefined();
    expect(done.outputs).toEqual([]);
  });

  it('fails PartnerCall without a partner key, and with a drained one', async () => {
    const workflow = {
      '1': { class_type: 'PartnerCall', inputs: { prompt: 'a cat' } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'p' } },
    };
    const missing = await waitForJob(ctx.server, (await submitJob(ctx.server, workflow)).body.urls.self, ['failed']);
    expect(missing.error.code).toBe('validation_error');
    expect(missing.error.message).toMatch(/api_key_comfy_org/);
    const drained = await waitForJob(
      ctx.server,
      (await submitJob(ctx.server, workflow, { extra_data: { api_key_comfy_org: 'drained-org' } })).body.urls.self,
      ['failed'],
    );
    expect(drained.error.code).toBe('insufficient_funds');
    expect(drained.error.traceback).toMatch(/InsufficientFundsError/);
    const ok = await waitForJob(
      ctx.server,
      (await submitJob(ctx.server, workflow, { extra_data: { api_key_comfy_org: 'org-key' } })).body.urls.self,
      ['succeeded'],
    );
    expect(ok.outputs).toHaveLength(1);
  });

  it('reports progress weighted by sampler steps while running, on the event stream; a poll says progress null (Comfy Cloud)', async () => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 30 }))).body;
    const seen = await streamedProgress(ctx.server, job, (progress) => progress.current_node_class === 'Sample' && progress.step >= 5);
    expect(seen).toMatchObject({ nodes_total: 3, current_node: '2', steps: 30 });
    // weights: EmptyImage 1, Sample 30, SaveImage 1
    expect(seen.value).toBeCloseTo((1 + seen.step) / 32, 2);
    const polled = (await getJson(ctx.server, job.urls.self)).body;
    expect(polled.status).toBe('running');
    expect(polled).toHaveProperty('progress', null);
    await postJson(ctx.server, job.urls.cancel, {});
  });
});

describe('job API v2: a serverless deployment polls progress', () => {
  const ctx = useDevServer({ deployment: 'serverless' });

  it('a polled running job carries its progress', async () => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 30 }), { prefix: '/deployment/dev-deployment' })).body;
    let body: Json = {};
    await until(async () => {
      body = (await getJson(ctx.server, job.urls.self)).body;
      return body.progress?.current_node_class === 'Sample' && body.progress.step >= 5;
    }, 'a polled progress at step 5');
    expect(body.status).toBe('running');
    expect(body.progress).toMatchObject({ nodes_total: 3, current_node: '2', steps: 30 });
    await postJson(ctx.server, job.urls.cancel, {});
  });
});

describe('job API v2: retention', () => {
  it('expires a job that outlives its deadline, and forgets finished ones', async () => {
    const server = await startFast({ retentionMs: 250, stepMs: 50 });
    try {
      const slow = (await submitJob(server, imageWorkflow({ steps: 100 }))).body;
      const quick = (await submitJob(server, bytesWorkflow(10))).body;
      const expired = await waitForJob(server, slow.urls.self, ['expired'], 3000);
      expect(expired.completed_at).not.toBeNull();
      // the quick job finished, then passed its deadline: gone
      let status = 200;
      for (let i = 0; i < 100 && status === 200; i++) {
        status = (await getJson(server, quick.urls.self)).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('job API v2: serverless deployment', () => {
  const prefix = '/deployment/dev-deployment';
  const ctx = useDevServer({ deployment: 'serverless', faults: true });

  it('answers deployment errors on submit by deployment state', async () => {
    const cases = [
      ['not_ready', 429, 'deployment_not_ready'],
      ['unavailable', 429, 'deployment_unavailable'],
      ['stopped', 422, 'deployment_stopped'],
    ] as const;
    for (const [state, status, code] of cases) {
      ctx.server.state.options.deploymentState = state;
      const res = await submitJob(ctx.server, imageWorkflow(), { prefix });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      if (status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // the control route switches it too
    const set = await fetch(`${ctx.server.url}/__dev/deployment`, { method: 'POST', body: JSON.stringify({ state: 'ready' }) });
    expect(set.status).toBe(200);
    expect((await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { prefix })).status).toBe(201);
  });

  it('refuses unknown classes at the gateway but reports engine refusals on the job', async () => {
    const unknown = await submitJob(ctx.server, { '1': { class_type: 'Nope', inputs: {} }, '2': { class_type: 'SaveText', inputs: { text: 1 } } }, { prefix });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.unknown_node_classes).toEqual(['Nope']);
    expect(Object.keys(unknown.body.error.details.node_errors)).toEqual(['1']);

    const bad = imageWorkflow({ steps: 999 });
    const accepted = await submitJob(ctx.server, bad, { prefix });
    expect(accepted.status).toBe(201);
    const failed = await waitForJob(ctx.server, accepted.body.urls.self, ['failed']);
    expect(failed.error.code).toBe('invalid_workflow');
    expect(failed.error.node_errors['2'].errors[0].type).toBe('value_bigger_than_max');
    expect(failed.error.message).toMatch(/node 2 \(Sample\)/);
  });
});

describe('job API v2: lazy hashes', () => {
  it('reports hash null until the server has hashed the output', async () => {
    const server = await startFast({ hashDelayMs: 300 });
    try {
      const done = await waitForJob(server, (await submitJob(server, bytesWorkflow(64))).body.urls.self, ['succeeded']);
      expect(done.outputs[0].hash).toBeNull();
      let later: Json = done;
      await until(async () => (later = (await getJson(server, done.urls.self)).body).outputs[0].hash !== null, 'the output hashed');
      expect(later.outputs[0].hash).toMatch(/^blake3:[0-9a-f]{64}$/);
    } finally {
      await server.close();
    }
  });
});
