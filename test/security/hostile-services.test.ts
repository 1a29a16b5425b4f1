// Hostile text in shapes the dev-server will not send, from purpose-built servers: a router whose
// model detail, catalog, schema and validation errors carry escapes; a job whose progress text
// does; a log whose escape sequences straddle chunk boundaries; a v1 WebSocket whose
// notifications, node ids, text frames and execution error do.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { encodeFrame, FRAME_TEXT } from '../../src/protocol/legacy-frames.js';
import { wesAt } from '../faults/kit.js';
import { expectNeutralised, hostile } from './hostile.js';
import { FAKE_JOB_ID, startFakeService } from './fake-service.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function serve(handler: Handler): Promise<{ url: string; server: ReturnType<typeof createServer> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

describe('a hostile model router', () => {
  const entry = { id: 'acme/m', provider: 'acme', model: 'm', billing: { charges_on_policy_rejection: hostile('billing') } };
  const doc = {
    openapi: '3.1.0',
    paths: {
      '/run': {
        post: {
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { prompt: { type: 'string', description: hostile('description'), default: hostile('default') } } },
              },
            },
          },
        },
      },
    },
  };
  let router = '';
  const routes: Handler = (req, res) => {
    const path = req.url!.split('?')[0];
    if (path === '/v1/models') return json(res, 200, { data: [entry], has_more: false, limit: 20 });
    if (path === '/v1/models/acme/m' && req.method === 'GET') return json(res, 200, { ...entry, input_schema_url: `/v1/models/acme/m/openapi.json?${hostile('link')}` });
    if (path === '/v1/models/acme/m/openapi.json') return json(res, 200, doc);
    if (path === '/v1/models/acme/m') return json(res, 422, { detail: [{ loc: ['body', hostile('loc')], msg: hostile('msg'), type: 'value_error' }] });
    json(res, 404, { detail: 'no such route', error_type: 'model_not_found' });
  };
  const run = (args: string[]) => wesAt(router, args, { env: { WES_ROUTER_URL: router, WES_ROUTER_TOKEN: 'rt-hostile-test' } });

  it('catalog, detail, schema table and 422 rows are shown neutralised', async () => {
    router = (await serve(routes)).url;
    expectNeutralised(await run(['models', 'list']), 'billing');
    const show = await run(['models', 'show', 'acme/m']);
    expect(show.code, show.stderr).toBe(0);
    expectNeutralised(show, 'billing');
    expectNeutralised(show, 'link');
    const schema = await run(['models', 'schema', 'acme/m']);
    expect(schema.code, schema.stderr).toBe(0);
    // The default column shows the value as JSON: escaped, so its payload stays as plain text.
    expectNeutralised(schema, 'description', { keepsPayload: true });
    expectNeutralised(schema, 'default', { keepsPayload: true });
    const refused = await run(['models', 'run', 'acme/m', '-d', '{"prompt":"x"}']);
    expect(refused.code).toBe(6);
    expectNeutralised(refused, 'loc');
    expectNeutralised(refused, 'msg');
  });
});

describe('a hostile job service', () => {
  it('progress text of a running job, in watch lines', async () => {
    let reads = 0;
    const fake = await startFakeService({
      route: (req, res) => {
        if (!req.url!.startsWith(`/api/v2/jobs/${FAKE_JOB_ID}`) || req.url!.endsWith('/events')) return false;
        reads++;
        const running = reads < 3;
        const self = `/api/v2/jobs/${FAKE_JOB_ID}`;
        json(res, 200, {
          ...fake.job(),
          status: running ? 'running' : 'succeeded',
          progress: { value: running ? 0.5 : 1, nodes_done: 1, nodes_total: 2, current_node: '7', current_node_class: hostile('class'), message: `${hostile('progress')} ${reads}` },
          urls: { self, cancel: `${self}/cancel`, events: `${self}/events` },
        });
        return true;
      },
    });
    closers.push(fake.close);
    const res = await wesAt(fake.url, ['jobs', 'watch', FAKE_JOB_ID, '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    expectNeutralised(res, 'progress');
    expectNeutralised(res, 'class');
  });

  it('a log whose escape sequences straddle chunk boundaries', async () => {
    const text = `${hostile('log')}\nsecond line \u001b]0;pwned-title\u0007 done\n`;
    const cut = [text.indexOf('\u001b[31m') + 1, text.indexOf('\u001b]0;') + 2, text.indexOf('\u202e') + 1, text.length - 4];
    const fake = await startFakeService({
      job: { urls: { self: `/api/v2/jobs/${FAKE_JOB_ID}`, events: '/none', cancel: '/none', logs: '/logs' } },
      route: async (req, res) => {
        if (req.url !== '/logs') return false;
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        let at = 0;
        for (const end of [...cut, text.length]) {
          res.write(text.slice(at, end));
          at = end;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        res.end();
        return true;
      },
    });
    closers.push(fake.close);
    const res = await wesAt(fake.url, ['jobs', 'logs', FAKE_JOB_ID]);
    expect(res.code, res.stderr).toBe(0);
    expectNeutralised(res, 'log');
    expect(res.stdout).toContain('second line');
  });
});

describe('a hostile v1 WebSocket', () => {
  it('notifications, node ids, text frames and the execution error are neutralised', async () => {
    const prompt = 'p-0001';
    let failed = false;
    const { url, server } = await serve((req, res) => {
      if (req.url === `/api/job/${prompt}/status`) return json(res, 200, { id: prompt, status: failed ? 'error' : 'in_progress' });
      json(res, 404, { error: { type: 'not_found', message: 'no route' } });
    });
    const wss = new WebSocketServer({ noServer: true });
    closers.push(() => new Promise((resolve) => wss.close(() => resolve())));
    server.on('upgrade', (req, socket, head) => {
      wss.handleUpgrade(req, socket, head, (ws) => {
        const send = (type: string, data: Record<string, unknown>) => ws.send(JSON.stringify({ type, data: { prompt_id: prompt, ...data } }));
        send('execution_start', {});
        send('executing', { node: hostile('node') });
        ws.send(Buffer.from(encodeFrame({ type: FRAME_TEXT, nodeId: hostile('text-node'), text: hostile('text') })));
        send('execution_cached', { nodes: [hostile('cached')] });
        send('notification', { value: hostile('notification') });
        send('executed', { node: '9', output: { images: [{ filename: hostile('file'), subfolder: '', type: 'output' }] } });
        failed = true;
        send('execution_error', {
          node_id: '9',
          node_type: hostile('node-type'),
          exception_type: hostile('exception'),
          exception_message: hostile('message'),
          traceback: [hostile('traceback')],
        });
      });
    });
    const res = await wesAt(url, ['legacy', 'watch', prompt, '--verbose'], { apiKey: 'k-hostile-ws' });
    expect(res.code).toBe(3);
    for (const tag of ['node', 'text', 'cached', 'notification', 'file', 'node-type', 'exception', 'message', 'traceback']) expectNeutralised(res, tag);
  });
});
