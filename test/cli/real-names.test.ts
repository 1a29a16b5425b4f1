// The maker's real names on the wire, proved against the dev-server in both of its name modes:
// `comfy` (X-Comfy-*, extra_data.api_key_comfy_org, as real servers speak) and `service` (the
// interface's neutral X-Service-*). wes sends the partner key under its real name on the v2 and v1
// submit, and reads the router's bucket, request id, price and suggestions from either header.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { NAME_MODES, makerHeader } from '../../src/protocol/maker-names.js';
import { startFast } from '../helpers/dev-server.js';
import { runWes, tempConfigDir, type RunOptions } from '../helpers/cli.js';

const PARTNER_FLOW = {
  '1': { class_type: 'PartnerCall', inputs: { prompt: 'a cat' } },
  '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'partner' } },
};

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wes-real-names-'));
  writeFileSync(join(work, 'partner.json'), JSON.stringify(PARTNER_FLOW));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(NAME_MODES)('against a dev-server speaking the %s names', (names) => {
  let cloud: DevServerHandle;
  let engine: DevServerHandle;
  beforeAll(async () => {
    cloud = await startFast({ names, routerTokens: ['broke-names'] });
    engine = await startFast({ names, deployment: 'self-hosted', engineVersion: '0.3.18' });
  });
  afterAll(async () => {
    await cloud?.close();
    await engine?.close();
  });
  const wes = (args: string[], opts: RunOptions = {}) => runWes(args, { ...opts, env: { WES_BASE_URL: cloud.url, WES_API_KEY: 'wes-dev-key', ...opts.env } });

  it('the server speaks its mode: the request id and error type under its names only', async () => {
    const res = await fetch(`${cloud.url}/v1/models/dev/nope`, { headers: { authorization: 'Bearer wes-dev-key' } });
    await res.arrayBuffer();
    const other = names === 'comfy' ? 'service' : 'comfy';
    expect(res.headers.get(makerHeader('errorType', names))).toBe('model_not_found');
    expect(res.headers.get(makerHeader('requestId', names))).toBeTruthy();
    expect(res.headers.get(makerHeader('errorType', other))).toBeNull();
  });

  it('jobs submit --partner-key: the job API v2 takes the key as extra_data.api_key_comfy_org and the partner node runs', async () => {
    const r = await wes(['--partner-key', 'pk-real', 'jobs', 'submit', join(work, 'partner.json'), '--wait', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const job = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(job.status).toBe('succeeded');
    expect(cloud.state.engine.get(job.id)!.extraData).toEqual({ api_key_comfy_org: 'pk-real' });
  });

  it('legacy prompt --partner-key: the engine keeps extra_data.api_key_comfy_org in /history (as 0.3.18 does) and the node runs', async () => {
    const env = { WES_BASE_URL: engine.url, WES_ENGINE: 'self-hosted', WES_API_KEY: undefined };
    const r = await runWes(['legacy', 'prompt', join(work, 'partner.json'), '--partner-key', 'pk-v1', '--wait'], { env });
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim().split('\n')[0]!;
    const history = (await (await fetch(`${engine.url}/api/history/${id}`)).json()) as Record<string, { prompt: unknown[]; status: { status_str: string } }>;
    expect(history[id]!.prompt[3]).toMatchObject({ api_key_comfy_org: 'pk-v1' });
    expect(history[id]!.status.status_str).toBe('success');
  });

  it('an unknown model is said to be unknown, with the suggestions and the request id (not "no model router")', async () => {
    const r = await wes(['models', 'run', 'dev/ech', '-d', '{}']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/model_not_found/);
    expect(r.stderr).toMatch(/Did you mean: dev\/echo/);
    expect(r.stderr).not.toMatch(/model router/);
    expect(r.stderr).toMatch(/request id [0-9a-z_-]+/i);
  });

  it('a router error shows the bucket from the header and the request id', async () => {
    const r = await wes(['--router-api', 'v2', 'models', 'run', 'dev/echo', '-d', '{"x":1}', '--json'], { env: { WES_ROUTER_TOKEN: 'broke-names' } });
    // dev/echo is free: a paid model shows the broke workspace's bucket.
    expect(r.code, r.stderr).toBe(0);
    const paid = await wes(['--router-api', 'v2', 'models', 'run', 'dev/image', '-d', '{"prompt":"x"}', '--json'], { env: { WES_ROUTER_TOKEN: 'broke-names' } });
    const error = JSON.parse(paid.stderr.trim().split('\n').pop()!).error;
    expect(error.code).toBe('insufficient_credits');
    expect(error.request_id).toBeTruthy();
  });

  it('credits used are shown after a v2 run, on stderr and in the --json metadata', async () => {
    const r = await wes(['--router-api', 'v2', 'models', 'run', 'dev/image', '-d', '{"prompt":"a fox","width":64,"height":64}', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const meta = JSON.parse(r.stderr.trim().split('\n').pop()!).metadata;
    expect(meta.credits_used).toBe('3');
    expect(meta.request_id).toBeTruthy();
    const human = await wes(['--router-api', 'v2', 'models', 'run', 'dev/image', '-d', '{"prompt":"a fox","width":64,"height":64}']);
    expect(human.stderr).toMatch(/credits used: 3/);
  });

  const v2 = (args: string[]) => wes(['--router-api', 'v2', 'models', 'run', ...args, '--json']);
  const metaOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').pop()!);

  it('a fallback names the provider that served the run, and each parameter its translation dropped (commas and all)', async () => {
    const r = await v2(['dev/image', '-d', '{"prompt":"provider-down fox","width":64,"height":64,"seed":7}']);
    expect(r.code, r.stderr).toBe(0);
    const meta = metaOf(r.stderr).metadata;
    expect(meta.fallback_provider).toBe('fal');
    expect(meta.dropped_params).toEqual(['seed (fal does not take a seed for this model, so the picture cannot be reproduced)']);
    const human = await wes(['--router-api', 'v2', 'models', 'run', 'dev/image', '-d', '{"prompt":"provider-down fox","width":64,"height":64,"seed":7}']);
    expect(human.stderr).toMatch(/served by the fallback provider fal/);
    expect(human.stderr).toMatch(/dropped by the provider translation: seed \(fal does not take a seed for this model, so the picture cannot be reproduced\)/);
    const refused = await v2(['dev/image', '-d', '{"prompt":"provider-down fox","width":64,"height":64}', '--no-fallback']);
    const error = metaOf(refused.stderr).error;
    expect([error.code, error.status]).toEqual(['provider_error', 502]);
    expect(error.request_id).toBeTruthy();
  });

  it('--provider sends model_provider: translated (dropped params shown), strict (none), unknown or not serving refused', async () => {
    const translated = await v2(['dev/image', '-d', '{"prompt":"fox","width":64,"height":64,"guidance_scale":3}', '--provider', 'fal']);
    expect(translated.code, translated.stderr).toBe(0);
    expect(metaOf(translated.stderr).metadata).toMatchObject({ fallback_provider: null, dropped_params: ['guidance_scale (fal applies its own, fixed guidance, so the value was not sent)'] });
    const strict = await v2(['dev/image', '-d', '{"prompt":"fox","width":64,"height":64,"guidance_scale":3}', '--provider', 'fal', '--strict']);
    expect(strict.code, strict.stderr).toBe(0);
    expect(metaOf(strict.stderr).metadata.dropped_params).toEqual([]);
    const notServing = await v2(['dev/image', '-d', '{"prompt":"fox"}', '--provider', 'wavespeed']);
    expect([notServing.code, metaOf(notServing.stderr).error.code]).toEqual([5, 'model_not_found']);
    const unknown = await v2(['dev/image', '-d', '{"prompt":"fox"}', '--provider', 'nobody']);
    expect(metaOf(unknown.stderr).error.code).toBe('invalid_input');
  });

  it('a content-policy refusal names what it refused', async () => {
    const r = await v2(['dev/moderated', '-d', '{"prompt":"violence"}']);
    const error = metaOf(r.stderr).error;
    expect(error.code).toBe('content_policy_violation');
    expect(error.details.refusal_subject).toBe('input_text');
    expect(error.message).toMatch(/refused: input_text/);
  });
});

describe('provider controls are the synchronous route\'s', () => {
  it('--provider, --strict and --no-fallback are refused with --queue, and --strict needs --provider (exit 2, nothing sent)', async () => {
    const env = { WES_BASE_URL: 'http://127.0.0.1:9', WES_API_KEY: 'k' };
    for (const extra of [['--provider', 'fal'], ['--no-fallback'], ['--provider', 'fal', '--strict']]) {
      const r = await runWes(['models', 'run', 'dev/image', '-d', '{}', '--queue', ...extra], { env });
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/queued delivery \(--queue\) takes no provider controls/)]);
    }
    const strict = await runWes(['models', 'run', 'dev/image', '-d', '{}', '--strict'], { env });
    expect([strict.code, strict.stderr]).toEqual([2, expect.stringMatching(/--strict only applies with --provider/)]);
  });
});

describe('queued delivery follows the URLs it was given', () => {
  let server: DevServerHandle;
  let config: { dir: string; cleanup: () => void };
  let elsewhere: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    server = await startFast({ queueUrlPrefix: '/v1/queue' });
    config = tempConfigDir();
    elsewhere = tempConfigDir();
  });
  afterAll(async () => {
    await server?.close();
    config?.cleanup();
    elsewhere?.cleanup();
  });
  const wes = (args: string[], configDir: string) => runWes(['--router-api', 'v2', ...args], { configDir, env: { WES_BASE_URL: server.url, WES_API_KEY: 'wes-dev-key' } });
  const count = (key: string) => server.state.requestCounts.get(key) ?? 0;

  it('collects, reads and cancels at status_url, response_url and cancel_url (kept in the local record), composing paths only for a request never seen submitted', async () => {
    const run = await wes(['models', 'run', 'dev/echo', '-d', '{"hi":1}', '--queue', '--wait'], config.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('{"hi":1}');
    const [id] = [...server.state.requestCounts.keys()].filter((k) => k.startsWith('GET /v1/queue/')).map((k) => k.split('/')[3]!);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(count(`GET /v1/queue/${id}`)).toBeGreaterThan(0);
    expect(count(`GET /v2/models/dev/echo/requests/${id}`)).toBe(0);

    // Another process of this machine finds the URLs in the local record.
    const status = await wes(['models', 'status', 'dev/echo', id!, '--json'], config.dir);
    expect(status.code, status.stderr).toBe(0);
    expect(count(`GET /v1/queue/${id}/status`)).toBe(1);
    const cancel = await wes(['models', 'cancel', '@last'], config.dir);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(count(`PUT /v1/queue/${id}/cancel`)).toBe(1);

    // Never seen submitted from here: the path is composed from the model and request ids.
    const composed = await wes(['models', 'status', 'dev/echo', id!, '--json'], elsewhere.dir);
    expect(composed.code, composed.stderr).toBe(0);
    expect(count(`GET /v2/models/dev/echo/requests/${id}/status`)).toBe(1);
  });
});
