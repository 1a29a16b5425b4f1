// `wes mcp` keeps wes's guarantees under faults: a submit whose answer was lost is found by its
// key (or reported in doubt, never sent again), and a wait survives the server going away and
// coming back. The SDK's own client drives the built binary over stdio.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow } from '../helpers/dev-server.js';
import { startMcp, structured, text, useMcp, type McpSession } from '../cli/mcp-env.js';
import { countsFrom, jobsTagged, sleep, useFaultServer, type FaultServer } from './kit.js';

const SUBMIT = 'POST /api/v2/jobs';

// Most of this file's time is waiting (retry backoffs, a job running, an outage): the groups below
// (a self-hosted server with its session, two Comfy Cloud servers each with its session, no server
// at all, a server behind a forwarder with its session) share nothing, so they run side by side;
// the tests of a cloud server take its session in turn. The restart test's job (150 steps of 20 ms)
// still runs when the outage begins: with the others beside it, at a load of 7 on 2 cores, the
// outage began by its sixth step.
describe.concurrent('wes mcp: a lost submit answer on a server with a job list', () => {
  const fx = useFaultServer({ stepMs: 5, deployment: 'self-hosted' });
  const mcp = useMcp(() => ({ WES_BASE_URL: fx.server.url }));

  it('is found by its Idempotency-Key and reported found: one POST, one job', async () => {
    await addFaults(fx.server, { match: SUBMIT, action: 'lose' });
    const counts = countsFrom(fx.server);
    const result = await mcp().call('submit_job', { workflow: imageWorkflow({ prefix: 'mcp-lost', steps: 1 }), wait: true });
    expect(result.isError, text(result)).toBeFalsy();
    expect(counts.delta(SUBMIT)).toBe(1);
    const jobs = jobsTagged(fx.server, 'mcp-lost');
    expect(jobs).toHaveLength(1);
    const s = structured(result);
    expect(s).toMatchObject({ how: 'lost-answer', finished: true, job: { id: jobs[0], status: 'succeeded' } });
    expect(s.recovered).toContain("the submit's answer was lost; found its job");
    expect(text(result)).toContain('nothing was sent twice');
  });
});

/**
 * A Comfy Cloud server (no job list) and a `wes mcp` on it, for one describe: its faults are the
 * describe's alone. Each session is a process of its own (about 0.6 s of CPU to start the SDK and
 * serve a few calls), spent so that the two describes below, each waiting seconds on retries, run
 * side by side.
 */
function useCloudSession(): { fx: FaultServer; mcp: () => McpSession } {
  const fx = useFaultServer({ stepMs: 5, jobList: false });
  // Comfy Cloud, known as such: no label is sent, so the lost answer's POST is the only one.
  const mcp = useMcp(() => ({ WES_BASE_URL: fx.server.url, WES_API_KEY: fx.server.apiKey!, WES_JOB_API: 'cloud' }));
  return { fx, mcp };
}

// Side by side with the other groups; its tests in turn, on one server (the second clears its faults).
describe.concurrent('wes mcp on Comfy Cloud (one server, one session, its tests in turn)', () => {
  describe.sequential('wes mcp: a lost submit answer on a server without a job list', () => {
    const { fx, mcp } = useCloudSession();

    it('is an in_doubt result (exit code 11) naming the key; nothing is sent again, and find_job says it cannot look', async () => {
      await addFaults(fx.server, { match: SUBMIT, action: 'lose' });
      const counts = countsFrom(fx.server);
      const result = await mcp().call('submit_job', { workflow: imageWorkflow({ prefix: 'mcp-doubt', steps: 1 }), idempotency_key: 'mcp-doubt-key' });
      expect(result.isError).toBe(true);
      expect(counts.delta(SUBMIT)).toBe(1);
      expect(jobsTagged(fx.server, 'mcp-doubt')).toHaveLength(1); // the lost answer's job runs: it must not be made twice
      const { error } = structured(result);
      expect(error).toMatchObject({ code: 'in_doubt', exit_code: 11, details: { idempotency_key: 'mcp-doubt-key' } });
      expect(error.hint).toContain('nothing was sent again');
      const find = await mcp().call('find_job', { idempotency_key: 'mcp-doubt-key' });
      expect(structured(find).error).toMatchObject({ code: 'not_found', exit_code: 5 });
      expect(structured(find).error.message).toContain('offers no job list');
      for (const said of mcp().said) expect(said).not.toContain(fx.server.apiKey!);
    });

    it('a wait that fails after the submit succeeded says the job runs on and how to follow it (never to submit again)', async () => {
      await addFaults(fx.server, { match: 'GET /api/v2/jobs/*', action: 'status', status: 500, count: 50, body: { error: { code: 'internal_error', message: 'reads are down' } } });
      const result = await mcp().call('submit_job', { workflow: imageWorkflow({ prefix: 'mcp-runs-on', steps: 1 }), wait: true });
      await fetch(`${fx.server.url}/__dev/faults`, { method: 'DELETE' });
      expect(result.isError).toBe(true);
      const [id] = jobsTagged(fx.server, 'mcp-runs-on');
      expect(structured(result).error.hint).toContain(`job ${id} was submitted and runs on: follow it with wait_job`);
    });

    it('server text comes back stripped of control characters, and a credential it echoes is redacted', async () => {
      const key = fx.server.apiKey!;
      const message = `no job here for credential ${key}\u001b]0;retitled\u0007\u001b[31m red\u202e reversed`;
      await addFaults(fx.server, { match: 'GET /api/v2/jobs/*', action: 'status', status: 400, body: { error: { code: 'invalid_request', message } } });
      const result = await mcp().call('get_job', { job_id: '00000000-0000-4000-8000-000000000001' });
      expect(result.isError).toBe(true);
      const { error } = structured(result);
      expect(error).toMatchObject({ code: 'invalid_request', exit_code: 6, status: 400 });
      for (const said of [text(result), error.message as string]) {
        expect(said).toContain('[credential redacted]');
        expect(said).toContain('red reversed');
        expect(said).not.toContain(key);
        expect(said).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      }
    });
  });
});

describe.concurrent('wes mcp: a model run whose answers are all lost', () => {
  // The models feature reads neither the job API's deployment nor its job list.
  const { fx, mcp } = useCloudSession();

  it('goes through the keyed send of the models feature: an error result naming its key and how to collect it as a tool call', async () => {
    // Every attempt (the first and the 4 retries, each under the same key) loses its answer.
    await addFaults(fx.server, { match: 'POST /v1/models/dev/echo', action: 'lose', count: 5 });
    const result = await mcp().call('run_model', { model: 'dev/echo', input: { a: 1 }, idempotency_key: 'mcp-run-key' });
    expect(result.isError).toBe(true);
    const { error } = structured(result);
    expect(error.details).toMatchObject({ idempotency_key: 'mcp-run-key' });
    expect(error.hint).toContain('the model run may have gone through (Idempotency-Key mcp-run-key)');
    expect(error.hint).toContain('collect its result with: run_model with the same model and input and idempotency_key "mcp-run-key"');
    expect(error.hint).not.toContain('wes models run');
    // Sent again under the same key once the answers come through, the router hands back the run.
    const again = await mcp().call('run_model', { model: 'dev/echo', input: { a: 1 }, idempotency_key: 'mcp-run-key' });
    expect(again.isError, text(again)).toBeFalsy();
  });
});

describe.concurrent('wes mcp: no server where the profile points', () => {
  it('a call is a network_error result whose hint names the URL tried and where it came from, as every command\'s error path says it', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const session = await startMcp({ WES_BASE_URL: `http://127.0.0.1:${port}`, WES_API_KEY: 'wes-unused-key' });
    try {
      const result = await session.call('get_job', { job_id: 'abc' });
      expect(result.isError).toBe(true);
      expect(structured(result).error).toMatchObject({ code: 'network_error', exit_code: 1 });
      expect(structured(result).error.hint).toContain(`wes tried http://127.0.0.1:${port}, the base URL from WES_BASE_URL`);
      expect(session.stderr()).toContain('get_job: failed: could not connect');
    } finally {
      await session.close();
    }
  });
});

/** A TCP forwarder in front of the server: stopping it is the server going away (connections cut, new ones refused); starting it again on the same port, the server back. */
async function forwarder(target: number): Promise<{ url: string; connections: () => number; stop(): Promise<void>; start(): Promise<void> }> {
  let server: Server;
  let port = 0;
  let count = 0;
  const open = new Set<Socket>();
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((inbound) => {
        count++;
        const outbound = connect(target, '127.0.0.1');
        for (const s of [inbound, outbound]) {
          open.add(s);
          s.on('close', () => open.delete(s));
          s.on('error', () => undefined);
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => count,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
    start: listen,
  };
}

describe.concurrent('wes mcp: the server restarts while wait_job waits', () => {
  const fx = useFaultServer({ stepMs: 20 });
  let proxy: Awaited<ReturnType<typeof forwarder>>;
  beforeAll(async () => {
    proxy = await forwarder(fx.server.port);
  });
  afterAll(() => proxy?.stop());
  const mcp = useMcp(() => ({ WES_BASE_URL: proxy.url, WES_API_KEY: fx.server.apiKey! }));

  it('the wait goes on through the outage and ends with the job succeeded', async () => {
    const submitted = await mcp().call('submit_job', { workflow: imageWorkflow({ prefix: 'mcp-restart', steps: 150 }) });
    expect(submitted.isError, text(submitted)).toBeFalsy();
    const id = structured(submitted).job.id as string;
    let running!: () => void;
    const seenRunning = new Promise<void>((resolve) => (running = resolve));
    const waiting = mcp().call('wait_job', { job_id: id, timeout_seconds: 60 }, { onprogress: (p) => p.message?.includes('running') && running() });
    await seenRunning;
    await proxy.stop();
    const during = fx.server.state.engine.list().find((j) => j.id === id)!.status;
    await sleep(1000);
    const before = proxy.connections();
    await proxy.start();
    const result = await waiting;
    expect(during).toBe('running');
    expect(result.isError, text(result)).toBeFalsy();
    expect(structured(result)).toMatchObject({ finished: true, exit_code: 0, job: { id, status: 'succeeded' } });
    expect(proxy.connections()).toBeGreaterThan(before);
  });
});
