// A mistyped base URL or a web server that is no job API must be said as what it is, never as a
// submit "in doubt" (exit 11): a failed TLS handshake sent nothing, and a 501 or an HTML 404/405
// is a definitive answer that made nothing (issue 38, item 1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import { runWes } from '../helpers/cli.js';

const FLOW = resolve(import.meta.dirname, '../fixtures/readme/flow.json');

/** Python's http.server answers a POST this way (501, HTML, its Server header). */
const PYTHON_501 =
  '<!DOCTYPE HTML>\n<html lang="en">\n    <head>\n        <meta charset="utf-8">\n        <title>Error response</title>\n    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: 501</p>\n        <p>Message: Unsupported method (\'POST\').</p>\n    </body>\n</html>\n';
const NGINX_405 = '<html>\r\n<head><title>405 Not Allowed</title></head>\r\n<body>\r\n<center><h1>405 Not Allowed</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
const NGINX_404 = NGINX_405.replaceAll('405 Not Allowed', '404 Not Found');

describe('a base URL with no job API behind it (issue 38, item 1)', () => {
  let python: TestServer;
  let nginx: TestServer;
  let plainText: TestServer;
  let jobApi: TestServer;
  const env = (url: string) => ({ WES_BASE_URL: url, WES_API_KEY: 'k' });
  beforeAll(async () => {
    python = await startTestServer((req, res) => {
      const page = req.method === 'POST' ? [501, PYTHON_501] as const : [404, PYTHON_501.replace('501', '404')] as const;
      res.writeHead(page[0], { server: 'SimpleHTTP/0.6 Python/3.12.3', 'content-type': 'text/html;charset=utf-8' }).end(page[1]);
    });
    nginx = await startTestServer((req, res) => {
      const [status, page] = req.method === 'POST' ? [405, NGINX_405] : [404, NGINX_404];
      res.writeHead(status, { server: 'nginx/1.24.0', 'content-type': 'text/html' }).end(page);
    });
    // A web framework's own answer for a route it lacks (what a ComfyUI engine's aiohttp says).
    plainText = await startTestServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404: Not Found'));
    // A job API whose deployment keeps no uploads: its own envelope.
    jobApi = await startTestServer((req, res) => {
      if (req.method === 'HEAD') return res.writeHead(404).end();
      return json(res, 501, { error: { code: 'not_implemented', message: 'asset uploads are not available on this deployment' } });
    });
  });
  afterAll(async () => {
    await Promise.all([python.close(), nginx.close(), plainText.close(), jobApi.close()]);
  });

  it('https:// to a plain HTTP server: the submit says use http://, exit 1, and nothing was sent', async () => {
    const https = python.url.replace('http://', 'https://');
    python.requests.length = 0;
    const res = await runWes(['jobs', 'submit', FLOW], { env: env(https) });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${https} does not speak TLS`);
    expect(res.stderr).toContain(`use ${python.url} instead`);
    expect(res.stderr).not.toMatch(/in doubt|may or may not|jobs find --key/);
    expect(python.requests).toEqual([]);
  });

  it('https:// on --json: the code says what is wrong, not in_doubt', async () => {
    const res = await runWes(['jobs', 'submit', FLOW, '--json'], { env: env(python.url.replace('http://', 'https://')) });
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr).error.code).toBe('not_tls');
  });

  it('a 501 HTML page on submit: not a job API server, what it looks like, exit 1, no search for the job', async () => {
    python.requests.length = 0;
    const res = await runWes(['jobs', 'submit', FLOW], { env: env(python.url) });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${python.url} is not a job API server: it answered POST /api/v2/jobs with 501 Not Implemented as an HTML page titled "Error response", from a server calling itself "SimpleHTTP/0.6 Python/3.12.3"; nothing was made there`);
    expect(res.stderr).toContain('check the base URL');
    expect(res.stderr).not.toMatch(/in doubt|may or may not|jobs find --key/);
    expect(python.requests.map((r) => r.method)).toEqual(['POST']);
  });

  it('an HTML 405 (nginx) on submit is no job API; an HTML 404 for one job is that job not found (exit 5), as a gateway in front of a job API answers it', async () => {
    const submit = await runWes(['jobs', 'submit', FLOW], { env: env(nginx.url) });
    expect(submit.code).toBe(1);
    expect(submit.stderr).toContain('is not a job API server: it answered POST /api/v2/jobs with 405 Method Not Allowed as an HTML page titled "405 Not Allowed", from a server calling itself "nginx/1.24.0"');
    const get = await runWes(['jobs', 'get', '3f2a9c1e-0000-4000-8000-000000000001'], { env: env(nginx.url) });
    expect(get.code).toBe(5);
    expect(get.stderr).not.toContain('is not a job API server');
  });

  it('a plain-text 404 for the job collection itself: no job API there', async () => {
    const res = await runWes(['jobs', 'submit', FLOW, '--json'], { env: env(plainText.url) });
    expect(res.code).toBe(1);
    const error = JSON.parse(res.stderr).error;
    expect(error.code).toBe('not_job_api');
    expect(error.message).toContain('as the text "404: Not Found"');
  });

  it('assets upload to such a server gets the same words, not "HTTP 501"', async () => {
    const dir = mkdtempSync(resolve(tmpdir(), 'wes-up-'));
    const file = resolve(dir, 'a.txt');
    writeFileSync(file, 'hello\n');
    const res = await runWes(['assets', 'upload', file], { env: env(python.url) });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('is not a job API server: it answered POST /api/v2/assets with 501 Not Implemented');
    const own = await runWes(['assets', 'upload', file], { env: env(jobApi.url) });
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('asset uploads are not available on this deployment');
    expect(own.stderr).toContain('hint: this server keeps no uploaded files');
  });
});
