// A models command where no model router answers (neither /v1/models nor /v2/models): a
// self-hosted ComfyUI engine and a job API server are named for what they are, anything else is
// said to answer no router; exit 5 with the fix (--router-url), never an "internal_error" nor a
// doubt about a run that never reached a router, and with no key configured (as on an engine)
// never "no credential" either.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { json, startTestServer } from '../helpers/http-server.js';

const engine = useDevServer({ deployment: 'self-hosted', engineOnly: true });

function expectNoRouter(r: { code: number | null; stderr: string }, what: RegExp): void {
  expect(r.code, r.stderr).toBe(5);
  expect(r.stderr).toMatch(what);
  expect(r.stderr).toMatch(/code no_model_router/);
  expect(r.stderr).toMatch(/hint: point wes at the model router: --router-url URL, WES_ROUTER_URL, or `wes config set router_url URL`/);
  expect(r.stderr).not.toMatch(/internal_error|may have gone through/);
}

describe('a self-hosted ComfyUI engine', () => {
  it('models list, show and run say it has no model router (exit 5)', async () => {
    const env = { WES_BASE_URL: engine.server.url };
    for (const args of [['models', 'list'], ['models', 'show', 'dev/echo'], ['models', 'run', 'dev/echo', '-d', '{}'], ['models', 'status', 'dev/echo', '6f1a1a6e-6a53-4a5f-9d3a-2b3b0a1f9c21']]) {
      const r = await runWes(args, { env });
      expectNoRouter(r, /this server is a self-hosted ComfyUI engine \(0\.3\.\d+\), which has no model router/);
    }
  });
});

describe('a job API server without a router', () => {
  it('is named as one (it answers /api/v2 in its own error shape), and a plain web server as answering no router', async () => {
    // As the reference self-hosted job API server answers: /api/v2 in JSON, anything else a plain-text 404.
    const server = await startTestServer((req, res) => {
      if (req.url?.startsWith('/api/v2/')) return json(res, 404, { error: { code: 'not_found', message: 'no such job', details: null } });
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404: Not Found');
    });
    const plain = await startTestServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    try {
      const r = await runWes(['models', 'list'], { env: { WES_BASE_URL: server.url } });
      expectNoRouter(r, /this server is a job API server \(it answers \/api\/v2\), which serves no model router/);
      const other = await runWes(['models', 'run', 'acme/chat', '-d', '{}'], { env: { WES_BASE_URL: server.url, WES_ROUTER_URL: plain.url } });
      expectNoRouter(other, new RegExp(`nothing at ${plain.url} answers as a model router: /v1/models and /v2/models answered 404`));
      // No credential is configured: the run is not sent without one; the catalogs are asked whether a router is there at all.
      expect(plain.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /v1/models?limit=1', 'GET /v2/models?limit=1']);
      const keyed = await runWes(['models', 'run', 'acme/chat', '-d', '{}'], { env: { WES_BASE_URL: server.url, WES_ROUTER_URL: plain.url, WES_API_KEY: 'k' } });
      expectNoRouter(keyed, /nothing at .* answers as a model router/);
      expect(plain.requests.slice(2).map((q) => `${q.method} ${q.url}`)).toEqual(['POST /v1/models/acme/chat', 'POST /v2/models/acme/chat']);
    } finally {
      await server.close();
      await plain.close();
    }
  });
});
