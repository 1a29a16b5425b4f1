// The dev-server's `self-hosted` deployment answers as the real engine did in the observations
// (test/fixtures/comfyui-selfhosted): status, body and headers, the small answers and upload's
// refusal included, with no X-Comfy-Request-Id (the hosted service's header, which an engine never
// sends, nor the reference job API server hosted beside it); the models API beside them keeps it.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWes } from '../helpers/cli.js';
import { fixture, keysOf } from '../helpers/comfyui-fixtures.js';
import { twoNodeWorkflow, useSelfHostedServers } from './legacy-kit.js';

const servers = useSelfHostedServers();
const twoNodes = twoNodeWorkflow('faithful');

function png(): Blob {
  return new Blob([Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')], { type: 'image/png' });
}

/** Every engine request the observations cover, as [method, path, body]. */
function engineRequests(): Array<[string, string, RequestInit['body']]> {
  const upload = new FormData();
  upload.set('image', png(), 'faithful.png');
  return [
    ['GET', '/api/object_info', undefined],
    ['GET', '/object_info/EmptyImage', undefined],
    ['GET', '/api/object_info/NoSuchClass', undefined],
    ['POST', '/api/prompt', JSON.stringify({ prompt: twoNodes })],
    ['POST', '/prompt', JSON.stringify({ prompt: { '1': { class_type: 'Nope', inputs: {} } } })],
    ['POST', '/api/prompt', JSON.stringify({})],
    ['GET', '/api/history', undefined],
    ['GET', '/api/history/unknown-prompt', undefined],
    ['GET', '/api/queue', undefined],
    ['POST', '/api/queue', JSON.stringify({ clear: true })],
    ['POST', '/api/interrupt', undefined],
    ['GET', '/api/view?filename=none.png&subfolder=&type=output', undefined],
    ['POST', '/api/upload/image', upload],
    ['POST', '/upload/image', new FormData()],
    ['GET', '/api/system_stats', undefined],
    ['GET', '/api/job/some-id/status', undefined],
    ['GET', '/api/features', undefined],
    ['GET', '/nothing/here', undefined],
  ];
}

describe('self-hosted deployment: answers as the engine gave them', () => {
  for (const [label, which] of [['with v2 beside', servers.server], ['--engine-only', servers.engineOnly]] as const) {
    it(`sends no X-Comfy-* (nor X-Service-*) header on any engine answer (${label})`, async () => {
      for (const [method, path, body] of engineRequests()) {
        const res = await fetch(`${which().url}${path}`, { method, body });
        await res.arrayBuffer();
        const service = [...res.headers.keys()].filter((name) => /^x-(comfy|service)-/.test(name));
        expect([method, path, service]).toEqual([method, path, []]);
      }
    });
  }

  it('sends none on the job API v2 beside the engine either (the reference job API server sends none), only on the models API', async () => {
    const server = servers.server();
    const auth = { authorization: `Bearer ${server.apiKey ?? ''}` };
    const v2 = await fetch(`${server.url}/api/v2/jobs/00000000-0000-0000-0000-000000000000`, { headers: auth });
    await v2.arrayBuffer();
    expect(v2.status).toBe(404);
    expect(v2.headers.get('x-comfy-request-id')).toBeNull();
    const models = await fetch(`${server.url}/v1/models`, { headers: auth });
    await models.arrayBuffer();
    expect(models.headers.get('x-comfy-request-id')).toBeTruthy();
  });

  it('upload: accepted as recorded; no file is a 400 with an empty body, not JSON', async () => {
    const recorded = fixture('upload.json');
    const form = new FormData();
    form.set('image', png(), 'faithful-upload.png');
    const ok = await fetch(`${servers.server().url}/api/upload/image`, { method: 'POST', body: form });
    expect(ok.status).toBe(recorded.accepted.status);
    const body = await ok.json();
    expect(keysOf(body)).toEqual(keysOf(recorded.accepted.body));
    expect(body).toMatchObject({ name: 'faithful-upload.png', subfolder: recorded.accepted.body.subfolder, type: recorded.accepted.body.type });
    for (const route of ['/api/upload/image', '/api/upload/mask']) {
      const refused = await fetch(`${servers.server().url}${route}`, { method: 'POST', body: new FormData() });
      expect([route, refused.status, await refused.text()]).toEqual([route, recorded.no_file.status, recorded.no_file.body]);
    }
  });

  it('the small fixed answers: unknown class and history {}, a missing /view and the control POSTs with empty bodies', async () => {
    const recorded = fixture<Record<string, { method?: string; path: string; request?: unknown; status: number; body: unknown }>>('small-answers.json');
    for (const [name, answer] of Object.entries(recorded)) {
      const res = await fetch(`${servers.server().url}${answer.path.replace('PROMPT', 'no-such-prompt')}`, {
        method: answer.method ?? 'GET',
        body: answer.request === undefined ? undefined : JSON.stringify(answer.request),
      });
      const text = await res.text();
      expect([name, res.status, typeof answer.body === 'string' ? text : JSON.parse(text)]).toEqual([name, answer.status, answer.body]);
    }
  });

  it('refuses a WebSocket upgrade at another path with the static route\'s empty 404, no request id', async () => {
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request(`${servers.server().url}/not-ws`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('error', reject);
      req.end();
    });
    expect([answer.status, answer.body]).toEqual([404, '']);
    expect(answer.headers['content-type']).toBe('application/octet-stream');
    expect(Object.keys(answer.headers).filter((name) => /^x-(comfy|service)-/.test(name))).toEqual([]);
  });

  it('the client works without the header: an upload, and a refused one read from its empty 400', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wes-faithful-'));
    try {
      const file = join(dir, 'mask.png');
      writeFileSync(file, Buffer.from(await png().arrayBuffer()));
      const env = { WES_BASE_URL: servers.engineOnly().url };
      const ok = await runWes(['legacy', 'upload', file, '--json'], { env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ name: 'mask.png', type: 'input' });
      const refused = await runWes(['legacy', 'upload', file, '--mask', '--original', 'never-uploaded.png'], { env });
      expect(refused.code, refused.stderr).toBe(6);
      expect(refused.stderr).toMatch(/^error: HTTP 400 bad request/m);
      expect(refused.stderr).not.toMatch(/request id/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
