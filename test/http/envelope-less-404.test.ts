// A 404 without the API's error envelope (a gateway's HTML page, a web server's plain text, an
// empty body) is "not found", exit 5, on every family: the job API (jobs, assets), the legacy
// API and the model router (where it means no router answers there). Issue 43.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

const JOB = '0b7a3f0e-2f44-4b8e-9e43-5c1f0a7d9b21';
const BODIES = {
  html: ['text/html; charset=utf-8', '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>'],
  plain: ['text/plain; charset=utf-8', '404: Not Found'],
  empty: [undefined, ''],
} as const;

const COMMANDS: Array<{ family: string; args: string[]; code: string }> = [
  { family: 'jobs', args: ['jobs', 'get', JOB], code: 'http_404' },
  { family: 'jobs (assets)', args: ['assets', 'get', 'asset-1'], code: 'http_404' },
  { family: 'legacy', args: ['legacy', 'status', JOB, '--engine', 'cloud'], code: 'not_found' },
  { family: 'models', args: ['models', 'show', 'acme/some-model'], code: 'no_model_router' },
];

describe.each(Object.entries(BODIES))('a 404 answered as %s, without an error envelope', (_kind, [type, body]) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer((_req, res) => {
      res.writeHead(404, type ? { 'content-type': type } : {});
      res.end(body);
    });
  });
  afterAll(() => server.close());

  it.each(COMMANDS)('$family: exit 5 (not found), never a crash or a generic error', async ({ args, code }) => {
    const res = await runWes([...args, '--json'], { env: { WES_BASE_URL: server.url, WES_API_KEY: 'test-key' } });
    expect(res.code, res.stderr).toBe(5);
    const { error } = JSON.parse(res.stderr.trim().split('\n').pop()!) as { error: { code: string; exit_code?: number } };
    expect(error.code).toBe(code);
    expect(res.stderr).not.toContain('<html');
  });
});
