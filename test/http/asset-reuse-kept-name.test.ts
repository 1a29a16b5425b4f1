// Comfy Cloud's from-hash reuse keeps the existing asset's name and tags (observations/
// job-api-v2-deployments.md): `assets upload --name/--tag` on bytes it holds says they were not
// applied, instead of leaving the user to believe them recorded. Issue 35.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import { useTempDir } from '../cli/jobs-env.js';

describe('assets upload onto bytes the service holds', () => {
  let server: TestServer;
  const dir = useTempDir();
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      if (req.method === 'HEAD') return res.writeHead(200).end();
      const body = JSON.parse(req.body.toString('utf8') || '{}') as { hash?: string };
      return json(res, 200, { id: 'asset-kept', hash: body.hash ?? null, size_bytes: 6, content_type: 'text/plain', file_path: 'first-name.txt', created_at: '2026-11-28T08:00:00Z', url: '/api/v2/assets/asset-kept/content', url_expires_at: '2026-11-28T09:00:00Z', created_new: false });
    });
  });
  afterAll(() => server.close());

  it('says that --name and --tag were not applied, naming the name the asset keeps', async () => {
    const file = join(dir(), 'hello.txt');
    writeFileSync(file, 'hello\n');
    const env = { WES_BASE_URL: server.url, WES_API_KEY: 'k' };
    const res = await runWes(['assets', 'upload', file, '--name', 'second-name.txt', '--tag', 'input'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe('asset-kept');
    expect(res.stderr).toContain('--name and --tag were not applied: the service reused an existing asset for these bytes (it keeps the name first-name.txt)');
    expect(server.requests.map((r) => `${r.method} ${r.url.split('/').slice(0, 5).join('/')}`)).toEqual(['HEAD /api/v2/assets/by-hash', 'POST /api/v2/assets/from-hash']);
    const plain = await runWes(['assets', 'upload', file], { env });
    expect(plain.stderr).not.toContain('were not applied');
  });
});
