// Server text with terminal escapes, BEL and bidi overrides, through every human output path the
// dev-server can reach: error messages (scripted error bodies of each surface), a job's error and
// traceback, output names (watch lines, the outputs table, saved paths), v1 failures over the
// WebSocket. --json keeps the exact text but escapes every active character.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow, submitJob, waitForJob } from '../helpers/dev-server.js';
import { failWorkflow, useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { LEGACY_KEY, wes as wesV1 } from '../cli/legacy-kit.js';
import { useFaultServer } from '../faults/kit.js';
import { expectClean, expectNeutralised, hostile } from './hostile.js';

describe('hostile text from the dev-server', () => {
  const fx = useFaultServer({ apiKey: LEGACY_KEY, stepMs: 2 });
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();

  it('an error message of the jobs API: human stderr neutralised, --json stderr exact but escaped', async () => {
    const text = hostile('v2-error');
    const id = (await submitJob(fx.server, imageWorkflow({ steps: 1 }))).body.id as string;
    const spec = { match: `GET /api/v2/jobs/${id}`, action: 'status', status: 409, body: { error: { code: `bad\u001b[2Jcode`, message: text } }, headers: { 'x-service-request-id': 'rid-\u009b2J-\u0085' } };
    await addFaults(fx.server, spec);
    const human = await wes(['jobs', 'get', id]);
    expect(human.code).toBe(6);
    expectNeutralised(human, 'v2-error');
    await addFaults(fx.server, spec);
    const json = await wes(['jobs', 'get', id, '--json']);
    expectClean(json.stderr, 'stderr --json');
    expect(JSON.parse(json.stderr).error.message).toBe(text);
  });

  it('error text of the models and legacy APIs and of a plain-text 5xx body is neutralised too', async () => {
    await addFaults(fx.server, [
      { match: 'GET /v1/models', action: 'status', status: 400, body: { detail: hostile('router'), error_type: `x\u001b[1m` } },
      { match: 'GET /api/queue', action: 'status', status: 400, body: { error: { type: 'bad', message: hostile('v1') } } },
      { match: 'GET /api/object_info', action: 'status', status: 500, count: 5, retry_after: 0, body: hostile('plain') },
    ]);
    const router = await wes(['models', 'list'], { env: { WES_ROUTER_TOKEN: LEGACY_KEY } });
    expectNeutralised(router, 'router');
    expectNeutralised(await wesV1(fx.server, ['legacy', 'queue']), 'v1');
    expectNeutralised(await wesV1(fx.server, ['legacy', 'object-info', '--retries', '0']), 'plain');
    await fetch(`${fx.server.url}/__dev/faults`, { method: 'DELETE' });
  });

  it("a job's error and traceback: watch, get --verbose; --json keeps the text exactly", async () => {
    const text = hostile('job-error');
    const id = (await submitJob(fx.server, failWorkflow(text))).body.id as string;
    const watch = await wes(['jobs', 'watch', id, '--interval', '0.05', '--verbose']);
    expect(watch.code).toBe(3);
    expectNeutralised(watch, 'job-error');
    const get = await wes(['jobs', 'get', id, '--verbose']);
    expect(get.stdout).toContain('Traceback');
    expectNeutralised(get, 'job-error');
    const json = await wes(['jobs', 'get', id, '--json']);
    expectClean(json.stdout, 'stdout --json');
    expect(JSON.parse(json.stdout).error.message).toContain(text);
  });

  it('output names: watch lines, the outputs table, saved paths and the files on disk', async () => {
    const prefix = hostile('name').replace(/ /g, '_');
    const flow = writeTemp(dir(), imageWorkflow({ prefix, steps: 1 }));
    const submit = await wes(['jobs', 'submit', flow, '--wait', '--interval', '0.05']);
    expect(submit.code, submit.stderr).toBe(0);
    expectNeutralised(submit, 'name', { keepsPayload: true });
    const id = submit.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expectNeutralised(await wes(['jobs', 'get', id]), 'name', { keepsPayload: true });
    const out = join(dir(), 'names');
    const download = await wes(['jobs', 'download', id, out]);
    expect(download.code, download.stderr).toBe(0);
    expectNeutralised(download, 'name', { keepsPayload: true });
    for (const file of readdirSync(out)) expectClean(file, 'a saved file name');
  });

  it('a v1 failure over the WebSocket: exception type and message, node, traceback (--verbose)', async () => {
    const text = hostile('v1-fail');
    const flow = writeTemp(dir(), failWorkflow(text));
    const res = await wesV1(fx.server, ['legacy', 'prompt', flow, '--ws', '--verbose']);
    expect(res.code).toBe(3);
    expectNeutralised(res, 'v1-fail');
    const id = /prompt ([0-9a-f-]{36})/.exec(res.stderr)?.[1];
    expect(id).toBeDefined();
    await waitForJob(fx.server, `/api/v2/jobs/${id}`, ['failed']).catch(() => undefined);
    const status = await wesV1(fx.server, ['legacy', 'status', id!, '--wait']);
    expectClean(status.stdout + status.stderr, 'legacy status');
  });
});
