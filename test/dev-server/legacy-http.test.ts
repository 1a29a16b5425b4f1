// The legacy API REST routes of the dev-server, over real HTTP.
import { describe, expect, it } from 'vitest';
import { encodeGradientPng } from '../../src/dev-server/models/stock/png.js';
import { startFast, useDevServer } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { failingWorkflow, sampleWorkflow, statusOf, submit, v1, waitForStatus } from './legacy-kit.js';

const png = (seed: number) => encodeGradientPng(4, 4, seed);

function imageForm(name: string, bytes: Buffer, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('image', new Blob([bytes], { type: 'image/png' }), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

describe('the legacy API REST', () => {
  const ctx = useDevServer({ faults: true, inactiveKeys: ['inactive-key'], noCreditKeys: ['broke-key'], stepMs: 3 });

  it('serves object_info, one class of it, and the feature flags', async () => {
    const all = await v1(ctx.server, 'GET', '/api/object_info');
    expect(all.status).toBe(200);
    expect(all.body.Sample.input.required).toHaveProperty('steps');
    const one = await v1(ctx.server, 'GET', '/api/object_info/SaveImage');
    expect(Object.keys(one.body)).toEqual(['SaveImage']);
    expect((await v1(ctx.server, 'GET', '/api/object_info/Nope')).body).toEqual({});
    expect((await v1(ctx.server, 'GET', '/api/features')).body).toMatchObject({ supports_preview_metadata: true });
  });

  it('wants the key, and refuses a wrong one with 401', async () => {
    const res = await fetch(`${ctx.server.url}/api/queue`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { type: 'unauthorized' } });
    expect((await v1(ctx.server, 'GET', '/api/queue', undefined, { 'x-api-key': 'wrong' })).status).toBe(401);
  });

  it('uploads images by multipart, numbering a taken name and honouring overwrite', async () => {
    const first = await v1(ctx.server, 'POST', '/api/upload/image', imageForm('cat.png', png(1), { type: 'input', overwrite: 'false' }));
    expect(first).toMatchObject({ status: 200, body: { name: 'cat.png', subfolder: '', type: 'input' } });
    const same = await v1(ctx.server, 'POST', '/api/upload/image', imageForm('cat.png', png(1)));
    expect(same.body.name).toBe('cat.png');
    const other = await v1(ctx.server, 'POST', '/api/upload/image', imageForm('cat.png', png(2)));
    expect(other.body.name).toBe('cat (1).png');
    const overwritten = await v1(ctx.server, 'POST', '/api/upload/image', imageForm('cat.png', png(3), { overwrite: 'true' }));
    expect(overwritten.body.name).toBe('cat.png');
    const temp = await v1(ctx.server, 'POST', '/api/upload/image', imageForm('../../evil/tmp.png', png(4), { type: 'temp' }));
    expect(temp.body).toMatchObject({ name: 'tmp.png', type: 'temp' });
  });

  it('refuses malformed uploads with 400 or 415', async () => {
    expect((await v1(ctx.server, 'POST', '/api/upload/image', imageForm('a.png', png(1), { type: 'output' }))).status).toBe(400);
    expect((await v1(ctx.server, 'POST', '/api/upload/image', imageForm('a.png', png(1), { overwrite: 'maybe' }))).status).toBe(400);
    const noFile = new FormData();
    noFile.append('type', 'input');
    expect((await v1(ctx.server, 'POST', '/api/upload/image', noFile)).body).toMatchObject({ error: { type: 'invalid_request' } });
    expect((await v1(ctx.server, 'POST', '/api/upload/image', { image: 'x' })).status).toBe(415);
  });

  it('uploads a mask that refers to a known original, and refuses bad references', async () => {
    await v1(ctx.server, 'POST', '/api/upload/image', imageForm('photo.png', png(9)));
    const ref = JSON.stringify({ filename: 'photo.png', subfolder: '', type: 'input' });
    const ok = await v1(ctx.server, 'POST', '/api/upload/mask', imageForm('photo-mask.png', png(10), { type: 'input', subfolder: 'clipspace', original_ref: ref }));
    expect(ok).toMatchObject({ status: 200, body: { name: 'photo-mask.png', subfolder: '' } });
    const malformed = await v1(ctx.server, 'POST', '/api/upload/mask', imageForm('m.png', png(10), { original_ref: '{nope' }));
    expect(malformed).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('not valid JSON') } } });
    const unknown = await v1(ctx.server, 'POST', '/api/upload/mask', imageForm('m.png', png(10), { original_ref: JSON.stringify({ filename: 'ghost.png' }) }));
    expect(unknown).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('not known') } } });
    const missing = await v1(ctx.server, 'POST', '/api/upload/mask', imageForm('m.png', png(10)));
    expect(missing.status).toBe(400);
  });

  it('submits a prompt and names its states through a run, in order', async () => {
    // The first phases last a window of time (legacy-status.test.ts walks each one on a clock); a
    // poller on a busy machine may sleep through one, so the names read here must come in the
    // run's order, whichever were caught, and end in success.
    const slow = await startFast({ stepMs: 20 });
    try {
      const res = await v1(slow, 'POST', '/api/prompt', { prompt: sampleWorkflow(10, 'run'), client_id: 'ignored' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ prompt_id: expect.any(String), number: expect.any(Number), node_errors: {} });
      const seen = await waitForStatus(slow, res.body.prompt_id, ['success']);
      const order = ['submitted', 'preparing', 'executing', 'success'];
      const ranks = seen.map((name) => order.indexOf(name));
      expect(ranks.every((rank, i) => rank >= 0 && (i === 0 || rank > ranks[i - 1]!)), seen.join(' → ')).toBe(true);
      expect(seen.at(-1)).toBe('success');
    } finally {
      await slow.close();
    }
  });

  it('names a queued job queued_waiting behind a running one, and a failed one error', async () => {
    const long = await submit(ctx.server, sampleWorkflow(150, 'long'));
    const behind = await submit(ctx.server, sampleWorkflow(2, 'behind'));
    await until(async () => (await statusOf(ctx.server, behind)) !== 'submitted', 'the end of the submitted window');
    expect(await statusOf(ctx.server, behind)).toBe('queued_waiting');
    await waitForStatus(ctx.server, behind, ['success'], 15_000);
    expect(await statusOf(ctx.server, long)).toBe('success');
    const failing = await submit(ctx.server, failingWorkflow());
    expect((await waitForStatus(ctx.server, failing, ['error', 'non_retryable_error'])).pop()).toBe('error');
  });

  it('answers 404 for an unknown prompt id', async () => {
    const res = await v1(ctx.server, 'GET', '/api/job/00000000-0000-0000-0000-000000000000/status');
    expect(res).toMatchObject({ status: 404, body: { error: { type: 'not_found' } } });
  });

  it('refuses bad workflows with 400 in the local-engine shape', async () => {
    const bad = await v1(ctx.server, 'POST', '/api/prompt', {
      prompt: { ...sampleWorkflow(2), '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 9999, seed: 1, denoise: 1, sampler_name: 'nope' } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'prompt_outputs_failed_validation', message: expect.any(String) });
    expect(bad.body.node_errors['2'].errors.map((e: { type: string }) => e.type).sort()).toEqual(['value_bigger_than_max', 'value_not_in_list']);
    expect(bad.body.node_errors['2'].class_type).toBe('Sample');
    const unknownClass = await v1(ctx.server, 'POST', '/api/prompt', { prompt: { ...sampleWorkflow(2), '9': { class_type: 'LoraLoader', inputs: {} } } });
    expect(unknownClass.body.error.extra_info.unknown_node_classes).toEqual(['LoraLoader']);
    expect((await v1(ctx.server, 'POST', '/api/prompt', {})).body.error.type).toBe('no_prompt');
    expect((await v1(ctx.server, 'POST', '/api/prompt', { prompt: [] })).body.error.type).toBe('invalid_prompt');
    expect((await v1(ctx.server, 'POST', '/api/prompt', { prompt: { nodes: [], links: [] } })).body.error.extra_info.code).toBe('workflow_format_ui');
    expect((await v1(ctx.server, 'POST', '/api/prompt', { prompt: sampleWorkflow(), extra_data: 'x' })).status).toBe(400);
  });

  it('refuses runs for an inactive subscription (429) and an empty balance (402)', async () => {
    const inactive = await v1(ctx.server, 'POST', '/api/prompt', { prompt: sampleWorkflow() }, { 'x-api-key': 'inactive-key' });
    expect(inactive).toMatchObject({ status: 429, body: { error: { type: 'inactive_subscription' } } });
    expect((await v1(ctx.server, 'GET', '/api/queue', undefined, { 'x-api-key': 'inactive-key' })).status).toBe(200);
    const broke = await v1(ctx.server, 'POST', '/api/prompt', { prompt: sampleWorkflow() }, { 'x-api-key': 'broke-key' });
    expect(broke).toMatchObject({ status: 402, body: { error: { type: 'insufficient_credits' } } });
  });

  it('runs partner nodes only with extra_data.api_key_comfy_org', async () => {
    const partner = { '1': { class_type: 'PartnerCall', inputs: { prompt: 'a cat' } }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'partner' } } };
    const withKey = await submit(ctx.server, partner, { api_key_comfy_org: 'org-key-123' });
    expect((await waitForStatus(ctx.server, withKey, ['success', 'error', 'non_retryable_error'])).pop()).toBe('success');
    const without = await submit(ctx.server, partner);
    expect((await waitForStatus(ctx.server, without, ['success', 'error', 'non_retryable_error'])).pop()).toBe('non_retryable_error');
    const refused = await v1(ctx.server, 'POST', '/api/prompt', { prompt: partner, extra_data: { api_key_comfy_org: 'insufficient-1' } });
    expect(refused.status).toBe(402);
  });

  it('redirects /api/view to a signed URL that serves the bytes without the key', async () => {
    const id = await submit(ctx.server, sampleWorkflow(1, 'viewme'));
    await waitForStatus(ctx.server, id, ['success']);
    const redirect = await v1(ctx.server, 'GET', '/api/view?filename=viewme_00001_.png&subfolder=&type=output');
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(ctx.server.signedOrigin)).toBe(true);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    expect((await fetch(location, { headers: { 'x-api-key': ctx.server.apiKey! } })).status).toBe(400);
    await v1(ctx.server, 'POST', '/api/upload/image', imageForm('up.png', png(5)));
    expect((await v1(ctx.server, 'GET', '/api/view?filename=up.png&type=input')).status).toBe(302);
    expect((await v1(ctx.server, 'GET', '/api/view?filename=missing.png&type=output')).status).toBe(404);
    expect((await v1(ctx.server, 'GET', '/api/view?type=output')).status).toBe(400);
  });

  it('lets LoadImage refer to an upload by its name', async () => {
    const up = await v1(ctx.server, 'POST', '/api/upload/image', imageForm('source.png', png(11)));
    const id = await submit(ctx.server, {
      '1': { class_type: 'LoadImage', inputs: { image: up.body.name } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'loaded' } },
    });
    expect((await waitForStatus(ctx.server, id, ['success', 'error'])).pop()).toBe('success');
  });

  it('shows the queue in the published cloud tuples, deletes pending jobs only, and interrupts every running one', async () => {
    const running = await submit(ctx.server, sampleWorkflow(150, 'q-running'));
    const pending = await submit(ctx.server, sampleWorkflow(2, 'q-pending'), { api_key_comfy_org: 'secret-org', note: 'kept' });
    await waitForStatus(ctx.server, running, ['executing']);
    const queue = (await v1(ctx.server, 'GET', '/api/queue')).body;
    expect(queue.queue_running.map((e: unknown[]) => e[1])).toEqual([running]);
    const entry = queue.queue_pending.find((e: unknown[]) => e[1] === pending);
    // [job_number, prompt_id, workflow_json, output_node_ids, {create_time}]: no extra_data, so no secret.
    expect(entry).toEqual([expect.any(Number), pending, expect.objectContaining({ '3': expect.any(Object) }), ['3'], { create_time: expect.any(Number) }]);
    expect(entry[0]).toBeGreaterThan(queue.queue_running[0][0]);

    const deleted = await v1(ctx.server, 'POST', '/api/queue', { delete: [pending, 'not-a-job', running] });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: [pending] } });
    expect(await statusOf(ctx.server, pending)).toBe('cancelled');
    expect(await statusOf(ctx.server, running)).toBe('executing'); // a running job is stopped with /api/interrupt

    const interrupted = await v1(ctx.server, 'POST', '/api/interrupt');
    expect(interrupted).toMatchObject({ status: 200, body: undefined });
    expect((await waitForStatus(ctx.server, running, ['cancelled'])).pop()).toBe('cancelled');

    const a = await submit(ctx.server, sampleWorkflow(150, 'c-a'));
    const b = await submit(ctx.server, sampleWorkflow(2, 'c-b'));
    await waitForStatus(ctx.server, a, ['executing']);
    expect((await v1(ctx.server, 'POST', '/api/queue', { clear: true })).body).toEqual({ deleted: [b], cleared: true });
    // The published route takes no id: naming another job still stops every running one.
    await v1(ctx.server, 'POST', '/api/interrupt', { prompt_id: b });
    await waitForStatus(ctx.server, a, ['cancelled']);
    expect((await v1(ctx.server, 'POST', '/api/queue', { delete: 'x' })).status).toBe(400);
    expect((await v1(ctx.server, 'POST', '/api/queue', {})).status).toBe(400);
  });

  it('answers unknown v1 routes with 404 and wrong methods with 405', async () => {
    expect((await v1(ctx.server, 'GET', '/api/nothing-here')).status).toBe(404);
    const wrong = await v1(ctx.server, 'DELETE', '/api/queue');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
  });
});
