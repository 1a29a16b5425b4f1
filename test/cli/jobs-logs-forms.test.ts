// `jobs logs` and `jobs get` read a run's log in every published form: a `logs` object on the job
// itself ({text, truncated, captured_at}; absent when there is none), the job's logs link
// answering that object as JSON, plain text, or 204. Human output is the text (stderr says when it
// is the tail of a longer log); --json keeps the service's object.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { json } from '../helpers/http-server.js';
import { jobJson, useFakeJobApi } from './fake-job-api.js';

const CAPTURED = '2026-11-26T15:51:16+00:00';

describe('jobs logs in every published form', () => {
  const api = useFakeJobApi();
  const wes = (args: string[]) => runWes(args, { env: { WES_BASE_URL: api().url } });
  const withLink = (id: string, status = 'succeeded') => {
    const job = jobJson(id, status);
    return { ...job, urls: { ...(job.urls as object), logs: `/api/v2/jobs/${id}/logs` } };
  };

  it('a logs object on the job: printed without a request; truncated says it is the tail; --json keeps the object', async () => {
    const logs = { text: 'step 9\nstep 10\nfailed: out of memory', truncated: true, captured_at: CAPTURED };
    api().add({ state: jobJson('with-logs', 'failed', { logs, error: { code: 'execution_error', message: 'out of memory' } }) });
    const res = await wes(['jobs', 'logs', 'with-logs']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('step 9\nstep 10\nfailed: out of memory\n');
    expect(res.stderr).toContain('this is the tail of a longer log');
    const asJson = await wes(['jobs', 'logs', 'with-logs', '--json']);
    expect(JSON.parse(asJson.stdout)).toEqual({ job_id: 'with-logs', logs, reason: null });
    expect(api().server.requests.filter((r) => r.url.endsWith('/logs'))).toEqual([]);

    const get = await wes(['jobs', 'get', 'with-logs']);
    expect(get.stdout).toContain('log note\tthe tail of a longer log\n');
    expect(get.stdout).toContain('log\tstep 9\nlog\tstep 10\nlog\tfailed: out of memory');
  });

  it('jobs get shows the end of a long log and says where the whole of it is', async () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    api().add({ state: jobJson('long-log', 'succeeded', { logs: { text, truncated: false, captured_at: CAPTURED } }) });
    const get = await wes(['jobs', 'get', 'long-log']);
    expect(get.stdout).toContain('log note\tthe last 20 of 50 lines');
    expect(get.stdout).not.toContain('log\tline 30\n');
    expect(get.stdout).toContain('log\tline 31\n');
    expect(get.stdout.trimEnd().endsWith('log\tline 50')).toBe(true);
    expect(get.stderr).toContain('(the whole log: wes jobs logs long-log)');
  });

  it('the logs link answering JSON, plain text, or 204', async () => {
    const logs = { text: 'hello from the node\n', truncated: false, captured_at: CAPTURED };
    api().add({ state: withLink('json-logs'), logs: (res) => json(res, 200, logs) });
    const fromJson = await wes(['jobs', 'logs', 'json-logs']);
    expect(fromJson.stdout).toBe('hello from the node\n');
    expect(fromJson.stderr).toBe('');
    expect(JSON.parse((await wes(['jobs', 'logs', 'json-logs', '--json'])).stdout)).toEqual({ job_id: 'json-logs', logs, reason: null });

    api().add({ state: withLink('text-logs'), logs: (res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain \u001b[2Jline\n') });
    const fromText = await wes(['jobs', 'logs', 'text-logs']);
    expect(fromText.stdout).toBe('plain line\n');
    expect(JSON.parse((await wes(['jobs', 'logs', 'text-logs', '--json'])).stdout)).toEqual({ job_id: 'text-logs', logs: { text: 'plain \u001b[2Jline\n' }, reason: null });

    api().add({ state: withLink('no-log'), logs: (res) => res.writeHead(204).end() });
    const empty = await wes(['jobs', 'logs', 'no-log']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toBe('no log for this job\n');
    expect(JSON.parse((await wes(['jobs', 'logs', 'no-log', '--json'])).stdout)).toEqual({ job_id: 'no-log', logs: null, reason: 'empty' });
  });

  it('no log anywhere: the surface keeps none; a running job has none yet', async () => {
    api().add({ state: jobJson('no-surface', 'succeeded') });
    const none = await wes(['jobs', 'logs', 'no-surface', '--json']);
    expect(JSON.parse(none.stdout)).toEqual({ job_id: 'no-surface', logs: null, reason: 'no_logs_on_surface' });
    expect(none.stderr).toBe('this server keeps no logs of what jobs print (its jobs carry no logs link)\n');
    api().add({ state: jobJson('still-running', 'running') });
    const running = await wes(['jobs', 'logs', 'still-running']);
    expect(running.stderr).toContain('no log for this job yet: it is running');
  });

  it('a JSON answer or job.logs that is not a log object is an unreadable answer (exit 1)', async () => {
    api().add({ state: withLink('bad-json'), logs: (res) => json(res, 200, { text: 5 }) });
    const res = await wes(['jobs', 'logs', 'bad-json']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('not a {text, truncated, captured_at} log object');
    api().add({ state: jobJson('bad-field', 'succeeded', { logs: 'oops' }) });
    expect((await wes(['jobs', 'logs', 'bad-field'])).code).toBe(1);
  });
});
