// The account's auth token for partner nodes (--partner-token, WES_PARTNER_TOKEN, profile
// partner_token): a v1 prompt carries it as extra_data.auth_token_comfy_org (the cloud's and the
// engine's /api/prompt take an open extra_data, and partner nodes read it as a hidden input); the
// job API v2 takes the key alone, so wes never sends the token there. A secret: masked wherever shown.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { PARTNER_TOKEN_FIELD } from '../../src/protocol/maker-names.js';
import { startFast } from '../helpers/dev-server.js';
import { runWes } from '../helpers/cli.js';
import { resultsFile, writeBatch } from './batch-env.js';

const TOKEN = 'tok-SECRETPARTNERTOKEN-5e1d';
const PARTNER_FLOW = {
  '1': { class_type: 'PartnerCall', inputs: { prompt: 'a cat' } },
  '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'partner' } },
};

let work: string;
let flow: string;
let cloud: DevServerHandle;
let engine: DevServerHandle;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'wes-partner-token-'));
  flow = join(work, 'partner.json');
  writeFileSync(flow, JSON.stringify(PARTNER_FLOW));
  cloud = await startFast();
  engine = await startFast({ deployment: 'self-hosted', engineVersion: '0.3.18' });
});
afterAll(async () => {
  await cloud?.close();
  await engine?.close();
  rmSync(work, { recursive: true, force: true });
});

const posts = (server: DevServerHandle, route: string) => server.state.requestCounts.get(`POST ${route}`) ?? 0;

describe('the partner token', () => {
  it('legacy prompt --partner-token: the engine gets extra_data.auth_token_comfy_org (kept in 0.3.18 /history) and the partner node runs on it alone', async () => {
    const r = await runWes(['legacy', 'prompt', flow, '--partner-token', TOKEN, '--wait'], { env: { WES_BASE_URL: engine.url } });
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim().split('\n')[0]!;
    const history = (await (await fetch(`${engine.url}/api/history/${id}`)).json()) as Record<string, { prompt: unknown[]; status: { status_str: string } }>;
    expect(history[id]!.prompt[3]).toMatchObject({ [PARTNER_TOKEN_FIELD]: TOKEN });
    expect(history[id]!.prompt[3]).not.toHaveProperty('api_key_comfy_org');
    expect(history[id]!.status.status_str).toBe('success');
  });

  it('WES_PARTNER_TOKEN on the cloud v1 /api/prompt: sent beside the partner key', async () => {
    const r = await runWes(['legacy', 'prompt', flow, '--partner-key', 'pk-cloud', '--wait'], { env: { WES_BASE_URL: cloud.url, WES_API_KEY: 'wes-dev-key', WES_PARTNER_TOKEN: TOKEN } });
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim().split('\n')[0]!;
    expect(cloud.state.engine.get(id)?.extraData).toMatchObject({ api_key_comfy_org: 'pk-cloud', [PARTNER_TOKEN_FIELD]: TOKEN });
  });

  it('jobs submit --partner-token is refused before anything is sent (exit 2): the job API v2 takes no token', async () => {
    const before = posts(cloud, '/api/v2/jobs');
    const r = await runWes(['jobs', 'submit', flow, '--partner-token', TOKEN], { env: { WES_BASE_URL: cloud.url, WES_API_KEY: 'wes-dev-key' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--partner-token: the job API v2 takes no partner token');
    expect(r.stderr).toContain('--partner-key');
    expect(r.stderr).not.toContain(TOKEN);
    expect(posts(cloud, '/api/v2/jobs')).toBe(before);
  });

  it('a token from WES_PARTNER_TOKEN is left out of a job submit (the server, closed to the key alone, runs the job) and a note says so', async () => {
    const r = await runWes(['jobs', 'submit', flow, '--partner-key', 'pk-v2', '--wait', '--json'], { env: { WES_BASE_URL: cloud.url, WES_API_KEY: 'wes-dev-key', WES_PARTNER_TOKEN: TOKEN } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the partner token (from WES_PARTNER_TOKEN) is not sent');
    const job = JSON.parse(r.stdout.trim().split('\n').pop()!) as { id: string; status: string };
    expect(job.status).toBe('succeeded');
    expect(cloud.state.engine.get(job.id)?.extraData).toEqual({ api_key_comfy_org: 'pk-v2' });
  });

  it('is a secret: masked in config list, config get and auth status (human and --json)', async () => {
    const env = { WES_BASE_URL: cloud.url, WES_API_KEY: 'wes-dev-key', WES_PARTNER_TOKEN: TOKEN };
    const outs = await Promise.all([
      runWes(['config', 'list'], { env }),
      runWes(['config', 'list', '--json'], { env }),
      runWes(['config', 'get', 'partner_token'], { env }),
      runWes(['auth', 'status'], { env }),
    ]);
    for (const r of outs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(TOKEN.slice(4, -4));
    }
    expect(outs[0]!.stdout).toMatch(/partner_token.*…5e1d \(27 chars\).*WES_PARTNER_TOKEN/);
    const listed = (JSON.parse(outs[1]!.stdout) as { settings: Array<{ key: string; value: string | null; source: string | null }> }).settings.find((s) => s.key === 'partner_token');
    expect(listed).toMatchObject({ value: '…5e1d (27 chars)', source: 'WES_PARTNER_TOKEN' });
    expect(outs[3]!.stdout).toMatch(/partner token.*…5e1d \(27 chars\) \(WES_PARTNER_TOKEN\)/);
  });

  it('a batch: lines on an engine carry the token, lines on the job API only the key (the closed extra_data runs them)', async () => {
    const onEngine = await startFast({ deployment: 'self-hosted', engineOnly: true, engineVersion: '0.3.18', stepMs: 1 });
    try {
      const env = { WES_PARTNER_KEY: 'pk-batch', WES_PARTNER_TOKEN: TOKEN, WES_API_KEY: 'wes-dev-key' };
      const file = writeBatch(work, 'lines.jsonl', [PARTNER_FLOW, PARTNER_FLOW]);
      for (const [server, extra] of [
        [onEngine, { api_key_comfy_org: 'pk-batch', [PARTNER_TOKEN_FIELD]: TOKEN }],
        [cloud, { api_key_comfy_org: 'pk-batch' }],
      ] as const) {
        const results = join(work, `results-${server === cloud ? 'v2' : 'engine'}.jsonl`);
        const r = await runWes(['--base-url', server.url, 'jobs', 'submit', '--batch', file, '--results', results], { env, timeoutMs: 30_000 });
        expect(r.code, r.stderr).toBe(0);
        const lines = resultsFile(results);
        expect(lines.map((l) => l.status)).toEqual(['succeeded', 'succeeded']);
        for (const line of lines) {
          const { client_id: _client, wes_batch_key: _key, ...credentials } = server.state.engine.get(line.job_id!)!.extraData;
          expect(credentials).toEqual(extra);
        }
      }
    } finally {
      await onEngine.close();
    }
  });
});
