// wes workflows against what ComfyUI 0.3.18 and 0.3.64 really answered: a small server replays the
// recorded user-data exchanges (test/fixtures/comfyui-selfhosted/userdata.json), each request
// answered with the recorded answer to that same method and target (the listing's query compared
// as a set of parameters, `dir` with or without its trailing slash, which the engine joins alike).
// A request that was never recorded is answered 599, so the test fails on it. This checks the
// client's own requests (the exact percent-encoding of names with spaces, é and 日本, overwrite=false
// on every save) and its reading of the real answers (Python's \u escapes, float times, a 409 in
// plain text, a 204 with no body).
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/comfyui-fixtures.js';
import { wesAgainstReplay } from '../helpers/replayed-engine.js';

interface Exchange {
  label: string;
  request: { method: string; target: string };
  response: { status: number; reason: string; content_type: string | null; body_raw?: string; body_ref?: string };
}

const recorded = fixture<{ ui_workflows: Record<string, string>; engines: Record<'0.3.18' | '0.3.64', Exchange[]> }>('userdata.json');

function keyOf(method: string, target: string): string {
  const url = new URL(target, 'http://x');
  const params = [...url.searchParams].map(([k, v]) => `${k}=${k === 'dir' ? v.replace(/\/$/, '') : v}`).sort();
  return `${method} ${url.pathname}?${params.join('&')}`;
}

function replay(exchanges: Exchange[]): { server: Server; asked: string[] } {
  const byKey = new Map<string, Exchange[]>();
  for (const ex of exchanges) {
    const key = keyOf(ex.request.method, ex.request.target);
    byKey.set(key, [...(byKey.get(key) ?? []), ex]);
  }
  const asked: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = keyOf(req.method!, req.url!);
      asked.push(key);
      const queue = byKey.get(key);
      const ex = queue && (queue.length > 1 ? queue.shift()! : queue[0]!);
      if (!ex) return void res.writeHead(599).end(`not recorded: ${key}`);
      const body = ex.response.body_ref ? recorded.ui_workflows[ex.response.body_ref]! : (ex.response.body_raw ?? '');
      const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(body) };
      if (ex.response.content_type) headers['content-type'] = ex.response.content_type;
      if (ex.response.status === 204) delete headers['content-length'];
      res.writeHead(ex.response.status, ex.response.reason, headers).end(body);
    });
  });
  return { server, asked };
}

for (const version of ['0.3.18', '0.3.64'] as const) {
  describe(`wes workflows against ComfyUI ${version}'s recorded answers`, () => {
    const { server, asked } = replay(recorded.engines[version]);
    const wes = wesAgainstReplay(server);

    it('lists the saved workflows with their real names, sizes and times', async () => {
      const res = await wes(['workflows', 'list', '--remote', '--json']);
      expect(res.code, res.stderr).toBe(0);
      const names = (JSON.parse(res.stdout) as Array<{ name: string; size: number; modified: string }>).map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['rec305457 with space.json', 'rec305457-café.json', 'rec305457-日本.json', 'rec305457-sub/x.json']));
      expect(asked).toContain('GET /api/userdata?dir=workflows&full_info=true&recurse=true&split=false');
    });

    it('pulls names with a space, é and 日本 back byte for byte', async () => {
      for (const name of ['rec305457 with space', 'rec305457-café', 'rec305457-日本', 'rec305457-sub/x']) {
        const res = await wes(['workflows', 'pull', name, '-o', '-']);
        expect([res.code, res.stdout], `${name}: ${res.stderr}`).toEqual([0, recorded.ui_workflows.UI_A]);
      }
      expect(asked).toContain('GET /api/userdata/workflows%2Frec305457-caf%C3%A9.json?');
      expect(asked).toContain('GET /api/userdata/workflows%2Frec305457-%E6%97%A5%E6%9C%AC.json?');
    });

    it('push: a new name is saved, an existing one refused (409) unless --overwrite', async () => {
      const fresh = await wes(['workflows', 'push', '-', '--name', 'rec305457-fresh'], recorded.ui_workflows.UI_A);
      expect(fresh.code, fresh.stderr).toBe(0);
      const taken = await wes(['workflows', 'push', '-', '--name', 'rec305457-basic'], recorded.ui_workflows.UI_B);
      expect(taken.code).toBe(6);
      expect(taken.stderr).toMatch(/already exists/);
      const replaced = await wes(['workflows', 'push', '-', '--name', 'rec305457-basic', '--overwrite'], recorded.ui_workflows.UI_A);
      expect(replaced.code, replaced.stderr).toBe(0);
      expect(asked).toEqual(expect.arrayContaining([
        'POST /api/userdata/workflows%2Frec305457-fresh.json?overwrite=false',
        'POST /api/userdata/workflows%2Frec305457-basic.json?overwrite=false',
        'POST /api/userdata/workflows%2Frec305457-basic.json?overwrite=true',
      ]));
    });

    it('rm: the 204 with no body is a success', async () => {
      const res = await wes(['workflows', 'rm', 'rec305457-basic']);
      expect(res.code, res.stderr).toBe(0);
      expect(asked).toContain('DELETE /api/userdata/workflows%2Frec305457-basic.json?');
      expect(asked.filter((k) => k.startsWith('GET /api/userdata/workflows%2F'))).not.toContain('GET /api/userdata/workflows%2Frec305457-basic.json?');
    });
  });
}
