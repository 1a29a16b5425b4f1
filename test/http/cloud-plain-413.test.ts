// Comfy Cloud refuses a body over 200 MB with a plain 413 (no error envelope): said as "too
// large", exit 6 (refused), the body's text kept out of the way of the message. Issue 35.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';
import { useTempDir } from '../cli/jobs-env.js';

describe('a plain-text 413 from an upload', () => {
  let server: TestServer;
  const dir = useTempDir();
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      if (req.method === 'HEAD') return res.writeHead(404).end();
      res.writeHead(413, { 'content-type': 'text/plain' });
      res.end('Request Entity Too Large');
    });
  });
  afterAll(() => server.close());

  it('is "too large", exit 6, never a crash', async () => {
    const file = join(dir(), 'big.png');
    writeFileSync(file, Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a9f50000000049454e44ae426082', 'hex'));
    const res = await runWes(['assets', 'upload', file], { env: { WES_BASE_URL: server.url, WES_API_KEY: 'k' } });
    expect(res.code, res.stderr).toBe(6);
    expect(res.stderr).toMatch(/too large/);
    expect(res.stderr).toContain('HTTP 413');
  });
});
