// `wes models run` through the built binary: bytes out as the router sent them, inputs typed by
// the schema and checked locally, and every router outcome with its exit code and retries.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setModelsDeadline } from '../../src/dev-server/models/index.js';
import { encodeGradientPng } from '../../src/dev-server/models/stock/png.js';
import { tempConfigDir } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { seen, totalRequests, wesAgainst } from './models-env.js';

const TOKENS = ['broke-cli', 'limited-cli', 't-collect', 't-spend', 't-flaky', 't-keyless'];
const holder = useDevServer({ catalogSize: 40, faults: true, routerTokens: TOKENS, routerLimits: { inFlight: 3, spendCents: 500 } });
const wes = wesAgainst(() => holder.server);
const DEADLINE_MS = 300;
let work: string;

beforeAll(() => {
  setModelsDeadline(holder.server.state, DEADLINE_MS);
  work = mkdtempSync(join(tmpdir(), 'wes-models-run-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('output', () => {
  it('prints the router bytes unchanged: key order, spacing and unicode (human and --json)', async () => {
    const body = '{ "zeta" : [1,2 ,3],\n\t"alpha": "é \\u00e9 😀 \\u2028", "n": 1.50e0 }';
    const file = join(work, 'odd.json');
    writeFileSync(file, body);
    for (const extra of [[], ['--json']]) {
      const r = await wes(['models', 'run', 'dev/echo', '--input', file, ...extra]);
      expect(r.code).toBe(0);
      expect(r.stdoutBytes.equals(Buffer.from(body))).toBe(true);
    }
  });

  it('reads the input from standard input and sends -d alone byte for byte', async () => {
    const piped = await wes(['models', 'run', 'dev/echo', '--input', '-'], { input: '{"from":"stdin"}' });
    expect(piped.stdout).toBe('{"from":"stdin"}');
    const inline = await wes(['models', 'run', 'dev/echo', '-d', '{ "b":2, "a":1 }']);
    expect(inline.stdout).toBe('{ "b":2, "a":1 }');
  });

  it('echoes 2 MB byte for byte', async () => {
    const body = JSON.stringify({ data: 'ü'.repeat(1024 * 1024) });
    const file = join(work, 'big.json');
    writeFileSync(file, body);
    const r = await wes(['models', 'run', 'dev/echo', '--input', file]);
    expect(r.code).toBe(0);
    expect(r.stdoutBytes.equals(Buffer.from(body))).toBe(true);
  });

  it('writes to --output and saves linked files with --download, naming them on stderr', async () => {
    const out = join(work, 'result.json');
    const dir = join(work, 'downloads');
    const r = await wes(['models', 'run', 'dev/image', '-i', 'prompt=a fox', '-i', 'width=64', '-i', 'height=64', '-i', 'num_images=2', '--output', out, '--download', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const result = JSON.parse(readFileSync(out, 'utf8'));
    expect(result.images).toHaveLength(2);
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    for (const name of files) {
      const bytes = readFileSync(join(dir, name));
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect(r.stderr).toContain(join(dir, name));
    }
  });
});

describe('input', () => {
  it('merges --input, -d and -i in that order, typing pairs by the schema', async () => {
    const file = join(work, 'base.json');
    writeFileSync(file, JSON.stringify({ prompt: 'from file', width: 128, height: 64 }));
    const r = await wes(['models', 'run', 'dev/image', '--input', file, '-d', '{"prompt":"from -d","num_images":1}', '-i', 'width=64', '-i', 'seed=7']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.seed).toBe(7);
    expect(out.images[0]).toMatchObject({ width: 64, height: 64 });
  });

  it('turns -i key=@file into a data URI for a binary string field', async () => {
    const png = join(work, 'small.png');
    writeFileSync(png, encodeGradientPng(64, 72, 3));
    const r = await wes(['models', 'run', 'dev/upscale', '-i', `image=@${png}`, '-i', 'scale=4', '-i', 'tags=["x","y"]', '-i', 'face_enhance=true']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ width: 256, height: 288, scale: 4, tags: ['x', 'y'], face_enhance: true });
  });

  it('refuses a pair that does not fit its type with exit 2', async () => {
    const r = await wes(['models', 'run', 'dev/image', '-i', 'prompt=x', '-i', 'width=wide']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/width.*integer/);
  });

  it('refuses unreadable or non-object input files with exit 2 and sends nothing', async () => {
    const before = totalRequests(holder.server);
    expect((await wes(['models', 'run', 'dev/echo', '--input', join(work, 'missing.json')])).code).toBe(2);
    expect((await wes(['models', 'run', 'dev/echo', '-d', '[1,2]'])).code).toBe(2);
    expect((await wes(['models', 'run', 'dev/echo', '-d', '{oops'])).code).toBe(2);
    expect(totalRequests(holder.server)).toBe(before);
  });

  it('checks the input against the cached schema, shows every problem at once and sends nothing', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      expect((await wes(['models', 'schema', 'dev/upscale'], { configDir: dir })).code).toBe(0);
      const before = seen(holder.server, 'POST /v1/models/dev/upscale');
      const r = await wes(['models', 'run', 'dev/upscale', '-d', '{"scale":3,"creativity":9,"colour":"red"}'], { configDir: dir });
      expect(r.code).toBe(6);
      for (const text of ['image', 'missing', 'scale', 'enum', 'creativity', 'less_than_equal', 'colour', 'extra_forbidden', '--no-validate']) expect(r.stderr).toContain(text);
      expect(seen(holder.server, 'POST /v1/models/dev/upscale')).toBe(before);
    } finally {
      cleanup();
    }
  });
});

describe('router outcomes', () => {
  it('shows a 422 as a table of loc/msg/type/ctx, provider types passed through, with --no-validate', async () => {
    const tiny = encodeGradientPng(8, 8, 1).toString('base64');
    const r = await wes(['models', 'run', 'dev/upscale', '--no-validate', '-d', JSON.stringify({ image: tiny, tags: ['ok', ''] })]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/image\tImage must be at least 64x64 pixels, got 8x8\timage_too_small\t\{"min_width":64/);
    expect(r.stderr).toMatch(/tags\[1\]\tString should have at least 1 characters\tstring_too_short/);
    expect(r.stderr).toMatch(/request id req_/);
  });

  it('collects a result after 504 deadline_exceeded by retrying with the same key', async () => {
    const before = seen(holder.server, 'POST /v1/models/dev/slow');
    const r = await wes(['models', 'run', 'dev/slow', '-d', JSON.stringify({ prompt: 'p', duration_ms: DEADLINE_MS + 250 }), '--idempotency-key', 'cli-collect-1'], { token: 't-collect' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ prompt: 'p', duration_ms: DEADLINE_MS + 250 });
    expect(r.stderr).toMatch(/dev\/slow is still running at the provider \(the router stopped waiting\); collecting it in 1 s with Idempotency-Key cli-collect-1/);
    expect(seen(holder.server, 'POST /v1/models/dev/slow') - before).toBe(2);
  });

  it('gives up on a keyless-looking 504 after --retries and exits 8', async () => {
    holder.server.state.faults.add({ match: 'POST /v1/models/dev/echo', count: 2, action: 'status', status: 504, body: { detail: 'router gave up', error_type: 'deadline_exceeded' }, headers: { 'x-service-error-type': 'deadline_exceeded' } });
    const r = await wes(['models', 'run', 'dev/echo', '-d', '{}', '--retries', '1'], { token: 't-keyless' });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/retry 1\/1/);
    expect(r.stderr).toMatch(/deadline_exceeded/);
  });

  it('shows the committed spend figures of a 429 in cents and dollars and exits 7', async () => {
    const r = await wes(['models', 'run', 'dev/slow', '-d', '{"duration_ms":0,"cost_cents":900}', '--retries', '0'], { token: 't-spend' });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/concurrency_limit_exceeded/);
    expect(r.stderr).toMatch(/limit 500 cents \(\$5\.00\), in flight 0 cents \(\$0\.00\), remaining 500 cents \(\$5\.00\)/);
  });

  it('retries 503 service_unavailable after Retry-After and succeeds', async () => {
    const r = await wes(['models', 'run', 'dev/flaky', '-d', '{"prompt":"a b","unavailable_times":1}'], { token: 't-flaky' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ attempts: 2, output_text: 'b a' });
    expect(r.stderr).toMatch(/service_unavailable.*retry 1\/4 in 1 s/);
  });

  it.each([
    ['dev/moderated', '{"prompt":"nsfw things"}', undefined, 3, /content_policy_violation/],
    ['dev/broken', '{"prompt":"x"}', undefined, 3, /provider_error/],
    ['dev/moderated', '{"prompt":"fine"}', 'broke-cli', 9, /insufficient_credits/],
  ])('maps %s %s to its exit code without retrying', async (model, body, token, code, pattern) => {
    const before = seen(holder.server, `POST /v1/models/${model}`);
    const r = await wes(['models', 'run', model, '-d', body], { token });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).toMatch(/request id req_/);
    expect(seen(holder.server, `POST /v1/models/${model}`) - before).toBe(1);
  });

  it('exits 8 on provider_timeout once retries are spent', async () => {
    const r = await wes(['models', 'run', 'dev/timeout', '-d', '{"prompt":"x"}', '--retries', '0']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/provider_timeout/);
  });

  it('handles an unknown error type as internal_error, saying so, and prints the error object with --json', async () => {
    const fault = { match: 'POST /v1/models/dev/echo', action: 'status' as const, status: 400, body: { detail: 'quota frozen for today', error_type: 'quota_frozen' }, headers: { 'x-service-error-type': 'quota_frozen' } };
    holder.server.state.faults.add(fault);
    const human = await wes(['models', 'run', 'dev/echo', '-d', '{}']);
    expect(human.code).toBe(1); // handled as internal_error: exit 1, whatever the status
    expect(human.stderr).toMatch(/quota frozen for today/);
    expect(human.stderr).toMatch(/unknown error type quota_frozen; handled as internal_error/);
    holder.server.state.faults.add(fault);
    const json = await wes(['models', 'run', 'dev/echo', '-d', '{}', '--json']);
    const error = JSON.parse(json.stderr).error;
    expect(error).toMatchObject({ code: 'internal_error', status: 400, request_id: expect.stringMatching(/^req_/), details: { declared_error_type: 'quota_frozen' } });
  });
});
