// The "Done when" sequence as wes really ran it against ComfyUI 0.3.18 and 0.3.64
// (test/fixtures/comfyui-selfhosted/wes-saved-real.json, captured by a recording proxy between wes
// and the real engines): push a UI-format workflow (again: refused), list it, pull it back byte for
// byte, run it by name with --saved and --set, fetch its image, move it, remove it. A small server
// answers each request with the recorded answer to the same method and target, in the recorded
// order; one never recorded gets 599, so wes asking anything else fails the test.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/comfyui-fixtures.js';
import { wesAgainstReplay } from '../helpers/replayed-engine.js';

interface Exchange {
  request: { method: string; target: string; body_text?: string };
  response: { status: number; reason: string; content_type: string | null; content_length: string | null; body_raw?: string; body_base64?: string };
}

const recorded = fixture<{ engines: Record<'0.3.18' | '0.3.64', Exchange[]> }>('wes-saved-real.json');
const NAME = 'sub dir/invert café 日本';

function replay(exchanges: Exchange[]): { server: Server; asked: Array<{ key: string; body: string }> } {
  const byKey = new Map<string, Exchange[]>();
  for (const ex of exchanges) {
    const key = `${ex.request.method} ${ex.request.target}`;
    byKey.set(key, [...(byKey.get(key) ?? []), ex]);
  }
  const asked: Array<{ key: string; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = `${req.method} ${req.url}`;
      asked.push({ key, body: Buffer.concat(chunks).toString('utf8') });
      const queue = byKey.get(key);
      const ex = queue && (queue.length > 1 ? queue.shift()! : queue[0]!);
      if (!ex) return void res.writeHead(599).end(`not recorded: ${key}`);
      const body = ex.response.body_base64 !== undefined ? Buffer.from(ex.response.body_base64, 'base64') : Buffer.from(ex.response.body_raw ?? '');
      const headers: Record<string, string | number> = {};
      if (ex.response.content_type) headers['content-type'] = ex.response.content_type;
      if (ex.response.content_length !== null) headers['content-length'] = body.length;
      res.writeHead(ex.response.status, ex.response.reason, headers).end(body);
    });
  });
  return { server, asked };
}

/** The recorded answer to the first request of this method whose target starts so. */
function answerTo(version: '0.3.18' | '0.3.64', method: string, prefix: string): Exchange {
  return recorded.engines[version].find((ex) => ex.request.method === method && ex.request.target.startsWith(prefix))!;
}

for (const version of ['0.3.18', '0.3.64'] as const) {
  describe(`saved workflows, as wes ran them against a real ComfyUI ${version}`, () => {
    const { server, asked } = replay(recorded.engines[version]);
    const dir = mkdtempSync(join(tmpdir(), 'wes-saved-real-'));
    const wes = wesAgainstReplay(server);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('push, list, pull byte for byte, run --saved to its image, mv, rm', async () => {
      const pushed = answerTo(version, 'POST', '/api/userdata/workflows%2Fsub%20dir').request.body_text!;
      const file = join(dir, 'invert café.json');
      writeFileSync(file, pushed);

      const push = await wes(['workflows', 'push', file, '--name', NAME]);
      expect(push.code, push.stderr).toBe(0);
      expect(asked.at(-1)!.key).toBe('POST /api/userdata/workflows%2Fsub%20dir%2Finvert%20caf%C3%A9%20%E6%97%A5%E6%9C%AC.json?overwrite=false');
      expect(asked.at(-1)!.body).toBe(pushed);
      const again = await wes(['workflows', 'push', file, '--name', NAME]);
      expect(again.code, again.stderr).toBe(6);

      const list = await wes(['workflows', 'list', '--remote', '--json']);
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual([{ name: `${NAME}.json`, size: Buffer.byteLength(pushed), modified: expect.any(String) }]);

      const pull = await wes(['workflows', 'pull', NAME, '-o', join(dir, 'pulled.json')]);
      expect(pull.code, pull.stderr).toBe(0);
      expect(readFileSync(join(dir, 'pulled.json'), 'utf8')).toBe(pushed);

      const run = await wes(['legacy', 'prompt', '--saved', NAME, '--set', '1.width=40', '--set', `3.filename_prefix=rec-${version}`, '--wait', '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 'success' });
      const sent = JSON.parse(asked.find((a) => a.key === 'POST /api/prompt')!.body) as { prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }> };
      expect(sent.prompt['1']).toMatchObject({ class_type: 'EmptyImage', inputs: { width: 40, height: 48, batch_size: 1, color: 1193046 } });
      expect(sent.prompt['3']!.inputs).toEqual({ filename_prefix: `rec-${version}`, images: ['2', 0] });

      const image = `rec-${version}_00001_.png`;
      const view = await wes(['legacy', 'view', image, '-o', join(dir, 'out.png')]);
      expect(view.code, view.stderr).toBe(0);
      const png = readFileSync(join(dir, 'out.png'));
      expect(png.equals(Buffer.from(answerTo(version, 'GET', '/api/view?').response.body_base64!, 'base64'))).toBe(true);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([40, 48]); // the IHDR: --set reached the engine

      const mv = await wes(['workflows', 'mv', NAME, 'moved 日本/renamed café']);
      expect(mv.code, mv.stderr).toBe(0);
      expect(asked.at(-1)!.key).toBe('POST /api/userdata/workflows%2Fsub%20dir%2Finvert%20caf%C3%A9%20%E6%97%A5%E6%9C%AC.json/move/workflows%2Fmoved%20%E6%97%A5%E6%9C%AC%2Frenamed%20caf%C3%A9.json?overwrite=false');
      const rm = await wes(['workflows', 'rm', 'moved 日本/renamed café']);
      expect(rm.code, rm.stderr).toBe(0);
      const empty = await wes(['workflows', 'list', '--remote', '--json']);
      expect(JSON.parse(empty.stdout)).toEqual([]);
      expect(asked.filter((a) => !byKeyRecorded(version, a.key))).toEqual([]);
    }, 60_000);
  });
}

function byKeyRecorded(version: '0.3.18' | '0.3.64', key: string): boolean {
  return recorded.engines[version].some((ex) => `${ex.request.method} ${ex.request.target}` === key);
}
