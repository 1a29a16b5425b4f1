// `wes assets upload FILE` without a key, or with a wrong one (issue 38, item 8): it said only
// "HTTP 401". The upload's first request is a HEAD (is the blob there already?), whose 401 has no
// body to carry the error envelope; the words come from the status and from whether a key went.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

let server: DevServerHandle;
let dir: string;
let file: string;
beforeAll(async () => {
  server = await startFast();
  dir = mkdtempSync(join(tmpdir(), 'wes-upload-401-'));
  file = join(dir, 'cat.bin');
  writeFileSync(file, Buffer.from('not really a cat'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the dev-server\'s upload routes refuse a missing or wrong key as the job API\'s other routes do', () => {
  const envelope = { error: { code: 'unauthorized', message: expect.any(String), details: null } };
  for (const key of [undefined, 'wrong-key']) {
    it(`${key ? 'a wrong key' : 'no key'}: the error envelope on POST, its headers (no body) on HEAD`, async () => {
      const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
      const form = new FormData();
      form.set('file', new Blob([Buffer.from('x')]), 'x.bin');
      const upload = await fetch(`${server.url}/api/v2/assets`, { method: 'POST', headers: auth, body: form });
      expect(upload.status).toBe(401);
      expect(await upload.json()).toEqual(envelope);
      const fromHash = await fetch(`${server.url}/api/v2/assets/from-hash`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"hash":"blake3:00"}' });
      expect(fromHash.status).toBe(401);
      expect(await fromHash.json()).toEqual(envelope);
      const get = await fetch(`${server.url}/api/v2/jobs`, { headers: auth });
      const head = await fetch(`${server.url}/api/v2/assets/by-hash/blake3%3A00`, { method: 'HEAD', headers: auth });
      expect(head.status).toBe(401);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(await head.text()).toBe('');
    });
  }
});

describe('wes assets upload, refused for its key', () => {
  it('with no key: says none was sent, and how to give one (exit 4)', async () => {
    const res = await runWes(['assets', 'upload', file], { env: { WES_BASE_URL: server.url } });
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^error: the service wants an API key and none was sent \(HTTP 401/m);
    expect(res.stderr).toMatch(/^hint: .*`wes auth login`.*WES_API_KEY=KEY/m);
  });

  it('with a wrong key: says the key was refused, and how to check it or give another (exit 4)', async () => {
    const res = await runWes(['assets', 'upload', file], { env: { WES_BASE_URL: server.url, WES_API_KEY: 'wrong-key' } });
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^error: the service refused the API key \(HTTP 401/m);
    expect(res.stderr).toMatch(/^hint: .*`wes auth status`.*`wes auth login`.*WES_API_KEY=KEY/m);
    expect(res.stderr).not.toMatch(/^error: HTTP 401/m);
  });

  it('a route that sends the envelope keeps the server\'s own words, with the same hint', async () => {
    const res = await runWes(['assets', 'get', '12345678-1234-1234-1234-123456789012'], { env: { WES_BASE_URL: server.url, WES_API_KEY: 'wrong-key' } });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/^error: invalid credential$/m);
    expect(res.stderr).toMatch(/^hint: .*`wes auth login`.*WES_API_KEY=KEY/m);
  });
});
