// A purpose-built job API v2 on 127.0.0.1 for answers the dev-server does not give (the reference
// self-hosted server's and the published contract's odd but real ones): each job's state is set
// by the test, reads answer it as it is now, and the event stream, workflow and logs routes are
// the test's own handlers. Submits are recorded (raw body text too) and make jobs by `onSubmit`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';

export type JobJson = Record<string, unknown> & { id: string; status: string };

export interface FakeJob {
  /** The job as the next read answers it (tests change it as the run goes on). */
  state: JobJson;
  /** Answers to reads, taken one per read before `state` is (a race a test stages). */
  reads?: JobJson[];
  events?: (res: ServerResponse, job: FakeJob, req: IncomingMessage) => Promise<void> | void;
  workflow?: { workflow: unknown; format: string } | string;
  logs?: (res: ServerResponse) => void;
  /** The answer to a cancel (default: the job becomes `canceling`). */
  onCancel?: (job: FakeJob) => JobJson;
}

export interface FakeJobApi {
  url: string;
  server: TestServer;
  jobs: Map<string, FakeJob>;
  submits: Array<{ body: unknown; text: string }>;
  /** Makes the job a submit creates (default: a new id, queued then succeeded on the first read). */
  onSubmit: (body: unknown, n: number) => FakeJob;
  add(job: FakeJob): FakeJob;
  reads(id: string): number;
}

/** A Job of the published shape, links host-relative, the status and fields given. */
export function jobJson(id: string, status: string, extra: Record<string, unknown> = {}): JobJson {
  const self = `/api/v2/jobs/${encodeURIComponent(id)}`;
  const now = Date.now();
  return {
    id,
    status,
    created_at: new Date(now - 2000).toISOString(),
    started_at: null,
    completed_at: null,
    expires_at: new Date(now + 86_400_000).toISOString(),
    queue_position: null,
    progress: null,
    outputs: [],
    error: null,
    urls: { self, events: `${self}/events`, cancel: `${self}/cancel` },
    ...extra,
  };
}

/** An output of the reference server's shape: size 0 and no hash, whatever the bytes. */
export function outputJson(id: string, name: string, node = '7'): Record<string, unknown> {
  return { node_id: node, name, type: 'image', content_type: 'image/png', size_bytes: 0, id, hash: null, url: `/api/v2/assets/${encodeURIComponent(id)}/content`, url_expires_at: new Date(Date.now() + 3_600_000).toISOString() };
}

/** Writes one server-sent event as the reference server does (compact JSON, no id: line). */
export function sendEvent(res: ServerResponse, name: string, data: unknown): void {
  res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

export function useFakeJobApi(): () => FakeJobApi {
  let api: FakeJobApi | undefined;
  beforeAll(async () => {
    const jobs = new Map<string, FakeJob>();
    const readCounts = new Map<string, number>();
    const submits: FakeJobApi['submits'] = [];
    const server = await startTestServer(async (req, res) => {
      const url = new URL(req.url!, 'http://x');
      const m = /^\/api\/v2\/jobs\/([^/]+)(?:\/(events|workflow|logs|cancel))?$/.exec(url.pathname);
      if (req.method === 'POST' && url.pathname === '/api/v2/jobs') {
        const text = req.body.toString('utf8');
        const body = JSON.parse(text) as unknown;
        submits.push({ body, text });
        const job = api!.add(api!.onSubmit(body, submits.length));
        return json(res, 201, job.state);
      }
      const job = m ? jobs.get(decodeURIComponent(m[1]!)) : undefined;
      if (!m || !job) return json(res, 404, { error: { code: 'not_found', message: 'no such job' } });
      const id = job.state.id;
      switch (m[2]) {
        case undefined: {
          readCounts.set(id, (readCounts.get(id) ?? 0) + 1);
          return json(res, 200, job.reads?.shift() ?? job.state);
        }
        case 'events':
          if (!job.events) return json(res, 501, { error: { code: 'not_implemented', message: 'no event streams here' } });
          return job.events(res, job, req);
        case 'workflow':
          if (job.workflow === undefined) return json(res, 404, { error: { code: 'not_found', message: 'no workflow' } });
          if (typeof job.workflow === 'string') return res.writeHead(200, { 'content-type': 'application/json' }).end(job.workflow);
          return json(res, 200, job.workflow);
        case 'logs':
          if (!job.logs) return json(res, 404, { error: { code: 'not_found', message: 'no logs route' } });
          return job.logs(res);
        case 'cancel':
          if (job.onCancel) return json(res, 200, job.onCancel(job));
          job.state = { ...job.state, status: 'canceling' };
          return json(res, 200, job.state);
      }
    });
    let made = 0;
    api = {
      url: server.url,
      server,
      jobs,
      submits,
      onSubmit: () => {
        const id = `fake-${++made}-${Date.now()}`;
        return { state: jobJson(id, 'queued'), reads: [] };
      },
      add(job) {
        jobs.set(job.state.id, job);
        return job;
      },
      reads: (id) => readCounts.get(id) ?? 0,
    };
  });
  afterAll(() => api?.server.close());
  return () => api!;
}
