// The client against the answers a real ComfyUI engine gave (test/fixtures/comfyui-selfhosted),
// replayed by a purpose-built server: detection, state from queue and history, every refusal
// shape, empty-bodied POSTs, and no credential sent when none is configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import { fixture } from '../helpers/comfyui-fixtures.js';

let server: TestServer;
/** The fixture POST /api/prompt answers next. */
let promptAnswer = 'prompt-accepted.json';
/** Prompts taken off the recorded queue by a POST /api/queue `{delete}`. */
const deletedIds = new Set<string>();

function queueNow(): { queue_running: unknown[][]; queue_pending: unknown[][] } {
  const queue = fixture('queue.json');
  return { ...queue, queue_pending: queue.queue_pending.filter((e: unknown[]) => !deletedIds.has(e[1] as string)) };
}

beforeAll(async () => {
  const plain = fixture('plain-404.json');
  server = await startTestServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/api/system_stats') return json(res, 200, fixture('system-stats.json'));
    if (path === '/api/queue' && req.method === 'GET') return json(res, 200, queueNow());
    if (path === '/api/history/PROMPT') return json(res, 200, fixture('history-success.json'));
    if (path.startsWith('/api/history/')) return json(res, 200, {});
    if (path === '/api/prompt') {
      const { status, body } = fixture(promptAnswer);
      return json(res, status, body);
    }
    if (path === '/api/queue' && req.method === 'POST') for (const id of JSON.parse(req.body.toString()).delete ?? []) deletedIds.add(id);
    if ((path === '/api/queue' || path === '/api/interrupt') && req.method === 'POST') return res.writeHead(200).end();
    res.writeHead(plain.status, { 'content-type': 'text/plain; charset=utf-8' }).end(plain.body);
  });
});
afterAll(async () => {
  await server.close();
});

function wes(args: string[], env: Record<string, string> = {}) {
  return runWes(args, { env: { WES_BASE_URL: server.url, ...env } });
}

describe('wes legacy against the recorded answers of a ComfyUI engine', () => {
  it('detects the engine and reads states from its queue and history', async () => {
    const done = await wes(['legacy', 'status', 'PROMPT']);
    expect([done.code, done.stdout.trim()], done.stderr).toEqual([0, 'success']);
    expect((await wes(['legacy', 'status', 'RUNNING'])).stdout.trim()).toBe('running');
    expect((await wes(['legacy', 'status', 'PENDING'])).stdout.trim()).toBe('pending');
    expect(server.requests.some((r) => r.url.includes('/api/job/') && r.url.endsWith('/status'))).toBe(true); // the detection's second probe
  });

  it('never sends a key or a token when none is configured', async () => {
    await wes(['legacy', 'queue']);
    expect(server.requests.length).toBeGreaterThan(0);
    for (const r of server.requests) {
      expect(r.headers['x-api-key']).toBeUndefined();
      expect(r.headers.authorization).toBeUndefined();
      expect(r.url).not.toContain('token=');
    }
  });

  it('reports each refusal shape: node_errors a list or a dict, error an object or a string (exit 6)', async () => {
    const cases: Array<[string, string, RegExp | null]> = [
      ['prompt-unknown-class.json', 'error: Cannot execute because node NoSuchClass does not exist.', null],
      ['prompt-failed-validation.json', 'error: Prompt outputs failed validation', /^1\tEmptyImage\tvalue_smaller_than_min\tValue 0 smaller than min of 1\twidth$/m],
      ['prompt-no-outputs.json', 'error: Prompt has no outputs', null],
      ['prompt-no-prompt.json', 'error: no prompt', null],
    ];
    for (const [file, message, row] of cases) {
      promptAnswer = file;
      const piped = await runWes(['legacy', 'prompt', '-'], { env: { WES_BASE_URL: server.url }, input: '{"1":{"class_type":"X","inputs":{}}}' });
      expect([file, piped.code]).toEqual([file, 6]);
      expect(piped.stderr).toContain(message);
      if (row) expect(piped.stderr).toMatch(row);
      expect(piped.stderr).not.toContain('unreadable');
    }
    promptAnswer = 'prompt-accepted.json';
    const accepted = await runWes(['legacy', 'prompt', '-'], { env: { WES_BASE_URL: server.url }, input: '{"1":{"class_type":"X","inputs":{}}}' });
    expect([accepted.code, accepted.stdout.trim()]).toEqual([0, 'PROMPT']);
  });

  it('takes the empty 200 of POST /queue and /interrupt as done, and checks the queue after a delete', async () => {
    const deleted = await wes(['legacy', 'queue', 'delete', 'PENDING']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain('deleted 1 pending prompt(s): PENDING');
    expect(server.requests.filter((r) => r.method === 'GET' && r.url === '/api/queue').length).toBeGreaterThanOrEqual(2); // before and after
    const interrupted = await wes(['legacy', 'interrupt', '--json']);
    expect([interrupted.code, JSON.parse(interrupted.stdout)]).toEqual([0, { interrupted: ['RUNNING'] }]);
  });
});
