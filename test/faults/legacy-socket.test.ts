// Faults on the legacy API, through the binary: a WebSocket dropped mid-run (the watch reconnects,
// re-checks by REST and succeeds), and a v1 prompt POST, which has no Idempotency-Key and so is
// never repeated: a 503 or a reset ends the command after one attempt, and never makes two jobs.
// Each test has a server of its own (its faults, request counts and jobs), so the tests run side by
// side: most of the file is waiting on prompts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFaults, useServerPerTest } from '../helpers/dev-server.js';
import { longWorkflow, sampleWorkflow, submit } from '../dev-server/legacy-kit.js';
import { LEGACY_KEY, wes } from '../cli/legacy-kit.js';
import { countsFrom, filesUnder, jobsTagged } from './kit.js';

describe.concurrent('faults on the legacy API', () => {
  const ownServer = useServerPerTest({ faults: true, apiKey: LEGACY_KEY, stepMs: 4, slots: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'wes-faults-v1-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const flow = (name: string, workflow: Record<string, unknown>) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(workflow));
    return path;
  };
  // A worker's first wes run of a command imports it (vitest transforms it: seconds on a loaded
  // machine). The first test's window is a prompt's length from its submit to the watch's socket;
  // run side by side, the tests would all start cold. So the commands are imported first.
  beforeAll(async () => {
    const server = await ownServer();
    const id = await submit(server, sampleWorkflow(1, 'warm-up'));
    await Promise.all([wes(server, ['legacy', 'watch', id]), wes(server, ['legacy', 'prompt', flow('warm-up', sampleWorkflow(1, 'warm-up')), '--ws'])]);
  });

  it('a WebSocket dropped twice mid-run: legacy watch reconnects each time and succeeds', async () => {
    const server = await ownServer();
    const id = await submit(server, longWorkflow('ws-twice', 2));
    await addFaults(server, [
      { match: 'GET /ws', action: 'drop', after_bytes: 1500 },
      { match: 'GET /ws', action: 'drop', after_bytes: 1500 },
    ]);
    const counts = countsFrom(server);
    const res = await wes(server, ['legacy', 'watch', id]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.match(/WebSocket connection lost/g)).toHaveLength(2);
    expect(res.stderr).toContain('WebSocket reconnected; re-checking the status');
    expect(counts.delta('GET /ws')).toBe(3);
    // One REST re-check per reconnect, plus the checks at start and end: bounded, not a poll loop.
    expect(counts.delta(`GET /api/job/${id}/status`)).toBeLessThanOrEqual(6);
    expect(server.state.engine.get(id)?.status).toBe('succeeded');
  });

  it('prompt --ws with a drop mid-run: one job, reconnected, outputs on disk, named by the job\'s record (GET /api/jobs/{id})', async () => {
    const server = await ownServer();
    await addFaults(server, { match: 'GET /ws', action: 'drop', after_bytes: 1500 });
    const counts = countsFrom(server);
    const out = join(dir, 'dropped');
    const res = await wes(server, ['legacy', 'prompt', flow('drop', longWorkflow('ws-prompt', 2)), '--ws', '--download', out]);
    expect(res.code, res.stderr).toBe(0);
    expect(counts.delta('POST /api/prompt')).toBe(1);
    expect(jobsTagged(server, 'ws-prompt')).toHaveLength(1);
    expect(counts.delta('GET /ws')).toBe(2);
    expect(filesUnder(out)).toEqual(['ws-prompt_00001_.png']);
    expect(counts.delta(`GET /api/jobs/${res.stdout.trim()}`)).toBe(1);
    expect(res.stderr).not.toContain('outputs reported while it was down are not known');
  });

  it('a v1 prompt answered 503, or reset before the answer, is not repeated: one attempt, no duplicate job', async () => {
    const server = await ownServer();
    await addFaults(server, { match: 'POST /api/prompt', action: 'status', status: 503, retry_after: 0, body: { error: { type: 'server_error', message: 'busy' } } });
    let counts = countsFrom(server);
    const busy = await wes(server, ['legacy', 'prompt', flow('busy', sampleWorkflow(1, 'v1-busy'))]);
    expect(busy.code).toBe(7);
    expect(counts.delta('POST /api/prompt')).toBe(1);
    expect(jobsTagged(server, 'v1-busy')).toHaveLength(0);

    await addFaults(server, { match: 'POST /api/prompt', action: 'drop', after_bytes: 5 });
    counts = countsFrom(server);
    const reset = await wes(server, ['legacy', 'prompt', flow('reset', sampleWorkflow(1, 'v1-reset'))]);
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain('broke mid-response');
    expect(counts.delta('POST /api/prompt')).toBe(1);
    // The job was created before the answer broke; a blind retry would have made a second one.
    expect(jobsTagged(server, 'v1-reset')).toHaveLength(1);
  });
});
