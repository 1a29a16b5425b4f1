// `--set` to an input the node does not take (issue 29, item 3): warned about, naming the node's
// inputs from the server's node definitions (or the workflow's own where the server has none),
// refused with --strict before anything is uploaded or sent. A name the workflow already has
// costs no request.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

// The README's quick-start workflow.
const FLOW = {
  '1': { class_type: 'EmptyImage', inputs: { width: 64, height: 64, batch_size: 1, color: 3368652 } },
  '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 2, seed: 42, denoise: 0.8, sampler_name: 'euler' } },
  '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'demo' } },
};

let server: DevServerHandle;
let noDefinitions: TestServer;
let dir: string;
let flow: string;
let kitten: string;
beforeAll(async () => {
  server = await startFast();
  noDefinitions = await startTestServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('404: Not Found'));
  dir = mkdtempSync(join(tmpdir(), 'wes-set-names-'));
  flow = join(dir, 'flow.json');
  writeFileSync(flow, JSON.stringify(FLOW));
  kitten = join(dir, 'kitten.png');
  writeFileSync(kitten, Buffer.from('not really a png'));
});
afterAll(async () => {
  await server.close();
  await noDefinitions.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (key: string) => server.state.requestCounts.get(key) ?? 0;
const cfg = tempConfigDir();
afterAll(() => cfg.cleanup());
/** One config folder for the file: the node definitions are cached there per base URL. */
const wes = (args: string[], env: Record<string, string> = {}) => runWes(args, { configDir: cfg.dir, env: { WES_BASE_URL: server.url, WES_API_KEY: server.apiKey!, ...env } });

describe('--set to an input the node does not take', () => {
  it('asks nothing more when the workflow already names the input', async () => {
    const res = await wes(['jobs', 'submit', flow, '--set', '1.width=32', '--set', '2.seed=7']);
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain('warning');
    expect(count('GET /api/object_info')).toBe(0);
  });

  it('takes an input the node defines although the workflow leaves it out', async () => {
    const withoutColor = join(dir, 'without-color.json');
    writeFileSync(withoutColor, JSON.stringify({ ...FLOW, '1': { class_type: 'EmptyImage', inputs: { width: 64, height: 64, batch_size: 1 } } }));
    const res = await wes(['jobs', 'submit', withoutColor, '--set', '1.color=255', '--strict']);
    expect(res.code, res.stderr).toBe(0);
    expect(count('GET /api/object_info')).toBe(1);
  });

  it('refuses a typo when the node\'s definition is known, before sending, with the input it meant (issue 38, item 4)', async () => {
    const posts = count('POST /api/v2/jobs');
    const res = await wes(['jobs', 'submit', flow, '--set', '1.widht=5']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('error: --set 1.widht: node 1 (EmptyImage) has no input "widht" (did you mean `width`?); its inputs (from its definition on');
    expect(res.stderr).toContain('): width, height, batch_size, color');
    expect(res.stderr).toContain('hint: nothing was sent');
    const seed = await wes(['jobs', 'submit', flow, '--set', '2.sed=7']);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toContain('node 2 (Sample) has no input "sed" (did you mean `seed`?)');
    const far = await wes(['jobs', 'submit', flow, '--set', '2.noise_level=7']);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('node 2 (Sample) has no input "noise_level"; its inputs');
    expect(count('POST /api/v2/jobs')).toBe(posts);
    expect(count('GET /api/object_info')).toBe(1); // cached per base URL
  });

  it('where no definition is known, warns and sends (the workflow\'s own inputs are all there is)', async () => {
    const res = await wes(['jobs', 'submit', flow, '--set', '2.sed=7'], { WES_ENGINE_URL: noDefinitions.url });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('warning: --set 2.sed: node 2 (Sample) has no input "sed" (did you mean `seed`?); its inputs (from the workflow): image, steps, seed, denoise, sampler_name');
    expect(res.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('with --strict refuses before any upload or submit (the README\'s old `1.image=@kitten.png`)', async () => {
    const posts = count('POST /api/v2/jobs');
    const uploads = [...server.state.requestCounts.entries()].filter(([k]) => k.startsWith('POST /api/v2/assets')).length;
    const res = await wes(['jobs', 'submit', flow, '--set', '1.image=@' + kitten, '--strict']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('error: --set 1.image: node 1 (EmptyImage) has no input "image"');
    expect(count('POST /api/v2/jobs')).toBe(posts);
    expect([...server.state.requestCounts.entries()].filter(([k]) => k.startsWith('POST /api/v2/assets')).length).toBe(uploads);
  });

  it('where the server has no node definitions, names the inputs the workflow gives', async () => {
    const res = await wes(['jobs', 'submit', flow, '--set', '1.widht=5', '--strict'], { WES_ENGINE_URL: noDefinitions.url });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('its inputs (from the workflow): width, height, batch_size, color');
  });
});
