// JSON nested deeper than the exact parser's stack is well-formed input wes refuses, named: exit 2
// before anything is submitted, never "not valid JSON" and never silently sent as a string.
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
  work = mkdtempSync(join(tmpdir(), 'wes-deep-'));
});
afterAll(async () => {
  await proxy.close();
  rmSync(work, { recursive: true, force: true });
});

const DEEP = '['.repeat(50_000) + ']'.repeat(50_000);
const TOO_DEEP = /nests arrays or objects too deeply to read/;

const wes = (args: string[]) =>
  runWes(args, { env: { WES_BASE_URL: proxy.url, WES_API_KEY: holder.server.apiKey, WES_ROUTER_URL: proxy.url, WES_ROUTER_TOKEN: holder.server.apiKey } });

describe('deeply nested JSON', () => {
  it('is refused with exit 2 in -i, -d, --set and a workflow file, submitting nothing', async () => {
    const workflow = join(work, 'wf.json');
    writeFileSync(workflow, '{"1": {"class_type": "EmptyImage", "inputs": {"width": 16, "height": 16, "batch_size": 1, "color": 0}}}');
    const deepFile = join(work, 'deep.json');
    writeFileSync(deepFile, `{"1": {"class_type": "EmptyImage", "inputs": {"width": ${DEEP}}}}`);
    const posts = () => proxy.requests.filter((r) => r.method === 'POST').length;
    const before = posts();

    const pair = await wes(['models', 'run', 'dev/echo', '-i', `x=${DEEP}`]);
    expect(pair.code).toBe(2);
    expect(pair.stderr).toMatch(/-i x: the JSON nests/);
    // -d merged with -i is read by the exact parser (a single source is sent as read).
    const data = await wes(['models', 'run', 'dev/echo', '-d', `{"x":${DEEP}}`, '-i', 'y=1']);
    expect(data.code).toBe(2);
    expect(data.stderr).toMatch(TOO_DEEP);
    expect(data.stderr).not.toMatch(/not valid JSON|call stack/);
    const set = await wes(['jobs', 'submit', workflow, '--set', `1.width=${DEEP}`]);
    expect(set.code).toBe(2);
    expect(set.stderr).toMatch(/--set: the JSON nests/);
    const inFile = await wes(['jobs', 'submit', deepFile]);
    expect(inFile.code).toBe(2);
    expect(inFile.stderr).toMatch(/deep\.json: the JSON nests/);

    // (models run may read the model's schema first, to type -i values; nothing is run or submitted)
    expect(posts()).toBe(before);
  });
});
