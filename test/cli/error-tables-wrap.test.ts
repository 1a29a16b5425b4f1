// Error tables keep what the user needs to fix (issue 29, item 7): on a terminal of 80 or 120
// columns the reason and details columns of node errors wrap instead of being cut, so the allowed
// values of a combo are all there; and a refusal with no node named gets no "fix the nodes above".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

const SAMPLERS = ['euler', 'euler_ancestral', 'heun', 'dpmpp_2m', 'dpmpp_sde', 'ddim', 'uni_pc'];

let server: DevServerHandle;
let refusing: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startFast();
  refusing = await startTestServer((_req, res) => json(res, 422, { error: { code: 'invalid_workflow', message: 'the workflow has no output node' } }));
  dir = mkdtempSync(join(tmpdir(), 'wes-wrap-'));
});
afterAll(async () => {
  await server.close();
  await refusing.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('error tables on a terminal', () => {
  it.each([80, 120])('wrap the details at %i columns instead of cutting the allowed values', async (columns) => {
    const bad = join(dir, `bad-${columns}.json`);
    writeFileSync(bad, JSON.stringify({
      '1': { class_type: 'EmptyImage', inputs: { width: 0, height: 64, batch_size: 1, color: 1 } },
      '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 8, seed: 1, denoise: 1, sampler_name: 'euler_a' } },
      '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'x' } },
    }));
    const res = await runWes(['workflows', 'validate', bad], { env: { WES_BASE_URL: server.url, WES_API_KEY: server.apiKey! }, terminal: { stderrTTY: true, columns } });
    expect(res.code).toBe(6);
    expect(res.stderr).not.toContain('…');
    const flat = res.stderr.replace(/\s*\n\s*/g, '');
    for (const name of SAMPLERS) expect(flat).toContain(`"${name}"`);
    expect(res.stderr).toContain('value_smaller_than_min'); // a code is kept whole
    const table = res.stderr.split('\n').filter((line) => !/error:|hint:/.test(line));
    for (const line of table) expect([...line.replace(/\u001b\[[0-9;]*m/g, '')].length).toBeLessThanOrEqual(columns);
  });

  it('a refused workflow with no node named gets no hint about nodes named above', async () => {
    const flow = join(dir, 'flow.json');
    writeFileSync(flow, JSON.stringify({ '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 1 } } }));
    const res = await runWes(['jobs', 'submit', flow], { env: { WES_BASE_URL: refusing.url, WES_API_KEY: 'k' } });
    expect(res.code).toBe(6);
    expect(res.stderr).toContain('no output node');
    expect(res.stderr).not.toContain('named above');
  });
});
