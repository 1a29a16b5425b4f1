// Numbers reach the service exactly as the user wrote them: a workflow file's 64-bit seed, a
// --set value beyond 2^53, a models run -i value; a literal JSON cannot hold is exit 2 before
// anything is sent. Checked on the bytes that crossed the wire (a recording proxy).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';

const holder = useDevServer();
let proxy: RecordingProxy;
let work: string;

beforeAll(async () => {
  proxy = await startRecordingProxy(holder.server.url);
  work = mkdtempSync(join(tmpdir(), 'wes-exact-'));
});
afterAll(async () => {
  await proxy.close();
  rmSync(work, { recursive: true, force: true });
});

const wes = (args: string[]) => runWes(args, { env: { WES_BASE_URL: proxy.url, WES_API_KEY: holder.server.apiKey } });

// The dev-server's Sample caps its seed at 2^53-1, so the 64-bit literal rides in an input it passes through.
const WORKFLOW = `{
  "1": {"class_type": "EmptyImage", "inputs": {"width": 16, "height": 12, "batch_size": 1, "color": 3368601}},
  "2": {"class_type": "Sample", "inputs": {"image": ["1", 0], "steps": 2, "seed": 5, "denoise": 0.30000000000000000001, "sampler_name": "euler"}},
  "3": {"class_type": "SaveImage", "inputs": {"images": ["2", 0], "filename_prefix": "exact", "noise_seed": 18446744073709551615}}
}`;

function file(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

function sentBodies(method: string, prefix: string): string[] {
  return proxy.requests.filter((r) => r.method === method && r.url.startsWith(prefix)).map((r) => r.body.toString('utf8'));
}

describe('jobs submit', () => {
  it('sends a workflow file’s 64-bit seed and long fraction digit for digit', async () => {
    const before = sentBodies('POST', '/api/v2/jobs').length;
    const r = await wes(['jobs', 'submit', file('seed.json', WORKFLOW)]);
    expect(r.code).toBe(0);
    const [body] = sentBodies('POST', '/api/v2/jobs').slice(before);
    expect(body).toContain('"noise_seed":18446744073709551615');
    expect(body).toContain('"denoise":0.30000000000000000001');
    expect(body).toContain('"color":3368601');
  });

  it('sends a --set value beyond 2^53 exactly', async () => {
    const before = sentBodies('POST', '/api/v2/jobs').length;
    const r = await wes(['jobs', 'submit', file('set.json', WORKFLOW), '--set', '3.noise_seed=9007199254740993', '--set', '2.steps=3']);
    expect(r.code).toBe(0);
    const [body] = sentBodies('POST', '/api/v2/jobs').slice(before);
    expect(body).toContain('"noise_seed":9007199254740993');
    expect(body).toContain('"steps":3');
  });

  it('refuses an overflowing literal in --set or in the file with exit 2, sending nothing', async () => {
    const before = proxy.requests.length;
    const set = await wes(['jobs', 'submit', file('ok.json', WORKFLOW), '--set', '3.noise_seed=1e400']);
    expect(set.code).toBe(2);
    expect(set.stderr).toMatch(/--set: the number 1e400 is too large for JSON/);
    const inFile = await wes(['jobs', 'submit', file('overflow.json', WORKFLOW.replace('18446744073709551615', '-2e999'))]);
    expect(inFile.code).toBe(2);
    expect(inFile.stderr).toMatch(/overflow\.json: the number -2e999 is too large for JSON/);
    expect(proxy.requests.length).toBe(before);
  });
});

describe('legacy prompt', () => {
  it('sends the workflow file’s seed exactly', async () => {
    const before = sentBodies('POST', '/api/prompt').length;
    const r = await wes(['legacy', 'prompt', file('legacy.json', WORKFLOW)]);
    expect(r.code).toBe(0);
    const [body] = sentBodies('POST', '/api/prompt').slice(before);
    expect(body).toContain('"noise_seed":18446744073709551615');
  });
});

describe('models run', () => {
  it('keeps -i and merged -d numbers exact (dev/echo answers with the body it got)', async () => {
    const r = await wes(['models', 'run', 'dev/echo', '-d', '{"seed":18446744073709551615,"x":1.5}', '-i', 'other=9007199254740993']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"seed":18446744073709551615,"x":1.5,"other":9007199254740993}');
  });

  it('refuses an overflowing -i or -d literal with exit 2', async () => {
    const pair = await wes(['models', 'run', 'dev/echo', '-i', 'n=1e400']);
    expect(pair.code).toBe(2);
    expect(pair.stderr).toMatch(/-i n: the number 1e400 is too large/);
    const data = await wes(['models', 'run', 'dev/echo', '-d', '{"n":1e400}']);
    expect(data.code).toBe(2);
    expect(data.stderr).toMatch(/-d: the number 1e400 is too large/);
  });
});
