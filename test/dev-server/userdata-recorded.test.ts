// The dev-server's user-data routes (saved workflows) against what ComfyUI 0.3.18 and 0.3.64
// answered (test/fixtures/comfyui-selfhosted/userdata.json): every recorded exchange replayed in
// its order on a fresh self-hosted dev-server of that release, each answer's status, reason,
// Content-Type, Content-Length and body compared. Times differ (modified, created, ETag values):
// numbers of time are compared as numbers, listings as sets (the engine lists in file-system order).
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startFast } from '../helpers/dev-server.js';
import { fixture } from '../helpers/comfyui-fixtures.js';

interface Exchange {
  label: string;
  request: { method: string; target: string; headers?: Record<string, string>; body_ref?: string; body_text?: string; body_length?: number };
  response: { status: number; reason: string; content_type: string | null; content_length: string | null; body_raw?: string; body_ref?: string; body_length?: number };
}

const recorded = fixture<{ ui_workflows: Record<string, string>; engines: Record<'0.3.18' | '0.3.64', Exchange[]> }>('userdata.json');

/** Not replayed, each with why. */
const SKIPPED: Record<string, string> = {
  // Node's client cannot send raw UTF-8 in a request line (it sends Latin-1), and Node's server
  // would answer such a line itself; wes always percent-encodes.
  post_raw_utf8_in_request_line: 'raw UTF-8 in the request line',
};

interface Answer {
  status: number;
  reason: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(base: string, method: string, target: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: target, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, reason: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function requestBody(ex: Exchange): Buffer | undefined {
  const r = ex.request;
  if (r.body_ref) return Buffer.from(recorded.ui_workflows[r.body_ref]!);
  if (r.body_text !== undefined) return Buffer.from(r.body_text);
  if (r.body_length !== undefined) {
    const head = '{"extra":{"pad":"';
    return Buffer.from(head + 'x'.repeat(r.body_length - head.length - 4) + '"}}\n');
  }
  return undefined;
}

/** Times zeroed and lists sorted, so two listings of the same files compare equal. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable).map((v) => JSON.stringify(v)).sort();
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'modified' || k === 'created' ? typeof v : comparable(v)]));
  }
  return value;
}

function timeDependent(raw: string): boolean {
  return raw.includes('"modified"') || (raw.startsWith('[') && raw.length > 2);
}

for (const version of ['0.3.18', '0.3.64'] as const) {
  describe(`user data as ComfyUI ${version} answered`, () => {
    it('every recorded exchange, in order', async () => {
      const server = await startFast({ deployment: 'self-hosted', engineOnly: true, engineVersion: version });
      const replayed: string[] = [];
      try {
        for (const ex of recorded.engines[version]) {
          if (SKIPPED[ex.label]) continue;
          // 0.3.64's /api/v2/userdata shares its prefix with the job API v2, which the dev-server routes as such.
          if (ex.request.target.startsWith('/api/v2/') && version === '0.3.64') continue;
          const headers = { ...ex.request.headers };
          if (headers['If-None-Match'] || headers['If-Modified-Since']) {
            // The validators of the file as it is now (the recorder, too, sent the ones it had just been given).
            const now = await send(server.url, 'GET', ex.request.target, {});
            if (headers['If-None-Match']) headers['If-None-Match'] = String(now.headers.etag);
            if (headers['If-Modified-Since']) headers['If-Modified-Since'] = String(now.headers['last-modified']);
          }
          const got = await send(server.url, ex.request.method, ex.request.target, headers, requestBody(ex));
          const want = ex.response;
          const label = `${version} ${ex.label}`;
          expect(got.status, label).toBe(want.status);
          if (want.status === 400 && want.content_length === '0') expect(got.reason, label).toBe(want.reason);
          expect(got.headers['content-type'] ?? null, label).toBe(want.content_type);
          expect(got.headers['content-length'] !== undefined, `${label} content-length`).toBe(want.content_length !== null);
          if (want.body_ref !== undefined) expect(got.body.toString(), label).toBe(recorded.ui_workflows[want.body_ref]);
          else if (want.body_length !== undefined) expect(got.body.length, label).toBe(want.body_length);
          else if (want.body_raw !== undefined && timeDependent(want.body_raw)) expect(comparable(JSON.parse(got.body.toString())), label).toEqual(comparable(JSON.parse(want.body_raw)));
          else {
            expect(got.body.toString(), label).toBe(want.body_raw);
            if (want.content_length !== null) expect(got.headers['content-length'], label).toBe(want.content_length);
          }
          replayed.push(ex.label);
        }
      } finally {
        await server.close();
      }
      expect(replayed.length).toBeGreaterThan(90);
    }, 30_000);
  });
}
