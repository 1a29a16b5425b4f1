// Odd but real answers of the job API (issue 25, item 10): a job read as `expired` while its
// `expires_at` is a day ahead (the reference server's race at completion) is read again before
// wes says the retention passed; node errors in either published shape render as one table; ids
// that are long opaque tokens (the reference server's output ids, up to 1024 printable
// characters) work wherever an id is taken.
import { describe, expect, it } from 'vitest';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { json, startTestServer } from '../helpers/http-server.js';
import { jobJson, outputJson, useFakeJobApi } from './fake-job-api.js';
import { useTempDir, writeTemp } from './jobs-env.js';

describe('odd but real job answers', () => {
  const api = useFakeJobApi();
  const wes = (args: string[], env: Record<string, string> = {}) => runWes(args, { env: { WES_BASE_URL: api().url, ...env } });
  const dir = useTempDir();

  it('an expired read while expires_at is ahead is read again: watch and get report what the next read says', async () => {
    const running = jobJson('raced-1', 'running');
    const raced = { ...running, status: 'expired' };
    api().add({ state: { ...running, status: 'succeeded', outputs: [outputJson('o1', 'a.png')] }, reads: [running, raced] });
    const watch = await wes(['jobs', 'watch', 'raced-1', '--interval', '0.05', '--no-events']);
    expect(watch.code, watch.stderr).toBe(0);
    expect(watch.stderr).toContain('job raced-1 succeeded');
    expect(watch.stderr).not.toMatch(/expired/);

    api().add({ state: { ...jobJson('raced-2', 'succeeded') }, reads: [{ ...jobJson('raced-2', 'expired') }] });
    const get = await wes(['jobs', 'get', 'raced-2']);
    expect(get.stdout).toMatch(/^status\tsucceeded$/m);
    expect(api().reads('raced-2')).toBe(2);
  });

  it('a job that stays expired before its expires_at is said so, not as "retention passed" (exit 3)', async () => {
    const job = jobJson('stays-expired', 'expired');
    api().add({ state: job });
    const res = await wes(['jobs', 'watch', 'stays-expired']);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`job stays-expired expired: the service says so, although its retention runs until ${job.expires_at as string}`);
    expect(res.stderr).not.toContain('retention passed');
    expect(api().reads('stays-expired')).toBe(5);

    api().add({ state: jobJson('really-expired', 'expired', { expires_at: new Date(Date.now() - 1000).toISOString() }) });
    const past = await wes(['jobs', 'watch', 'really-expired']);
    expect(past.code).toBe(3);
    expect(past.stderr).toContain('job really-expired expired before it finished (retention passed)');
    expect(api().reads('really-expired')).toBe(1);
  });

  it('node errors as lists of {field, reason} and as engine objects: one table, on a refused submit and on a failed job', async () => {
    const nodeErrors = {
      '12': [{ field: 'model', reason: 'missing_input' }, { field: 'seed', reason: 'value_out_of_range' }],
      '5': { class_type: 'KSampler', errors: [{ type: 'value_not_in_list', message: 'Value not in list', details: "sampler_name: 'nope'" }] },
    };
    const refusing = await startTestServer((_req, res) =>
      json(res, 422, { error: { code: 'invalid_workflow', message: "Node 12 (KSampler): required input 'model' is not connected", details: { node_errors: nodeErrors } } }),
    );
    try {
      const res = await runWes(['jobs', 'submit', writeTemp(dir(), { '1': { class_type: 'X', inputs: {} } })], { env: { WES_BASE_URL: refusing.url } });
      expect(res.code).toBe(6);
      const table = res.stderr.split('\n').filter((l) => l.includes('\t'));
      expect(table).toEqual([
        'NODE\tCLASS\tTYPE\tMESSAGE\tDETAILS',
        "5\tKSampler\tvalue_not_in_list\tValue not in list\tsampler_name: 'nope'",
        '12\t\tmissing_input\t\tmodel',
        '12\t\tvalue_out_of_range\t\tseed',
      ]);
    } finally {
      await refusing.close();
    }

    api().add({ state: jobJson('failed-fields', 'failed', { error: { code: 'invalid_workflow', message: 'refused by the engine', node_errors: nodeErrors } }) });
    const get = await wes(['jobs', 'get', 'failed-fields']);
    expect(get.stdout).toContain('node_error\t12\t\tmissing_input\t\tmodel');
    expect(get.stdout).toContain("node_error\t5\tKSampler\tvalue_not_in_list\tValue not in list\tsampler_name: 'nope'");
    const watch = await wes(['jobs', 'watch', 'failed-fields']);
    expect(watch.code).toBe(3);
    expect(watch.stderr).toContain('12\t\tvalue_out_of_range\t\tseed');
  });

  it('long opaque ids: submit, history, @last, the start of the id, completion, outputs of 1024 characters', async () => {
    const jobId = `eyJqIjogImIyN2E4ZTg4${'Lw_-'.repeat(70)}.nVKAPxgDsjgXx-tkhTSj0AS_5L`;
    const outputId = `tok.${'A1_-'.repeat(255)}`;
    expect(outputId).toHaveLength(1024);
    api().onSubmit = () => ({ state: jobJson(jobId, 'succeeded', { outputs: [outputJson(outputId, 'rnd8_00003_.png')] }) });
    const cfg = tempConfigDir();
    try {
      const env = { WES_BASE_URL: api().url };
      const run = (args: string[]) => runWes(args, { env, configDir: cfg.dir });
      const submit = await run(['jobs', 'submit', writeTemp(dir(), { '1': { class_type: 'X', inputs: {} } })]);
      expect(submit.code, submit.stderr).toBe(0);
      expect(submit.stdout.trim()).toBe(jobId);
      for (const ref of ['@last', jobId.slice(0, 8), jobId]) {
        const get = await run(['jobs', 'get', ref]);
        expect(get.code, get.stderr).toBe(0);
        expect(get.stdout).toContain(`id\t${jobId}\n`);
        expect(get.stdout).toContain('output\trnd8_00003_.png\timage\t\t7');
      }
      const list = await run(['jobs', 'list', '--json']);
      expect(JSON.parse(list.stdout)[0]).toMatchObject({ id: jobId, status: 'succeeded' });
      const completion = await run(['__complete', 'jobs']);
      expect(completion.stdout.split('\n')).toContain(jobId);
      const watch = await run(['jobs', 'watch', '@last', '--json']);
      expect(JSON.parse(watch.stdout).outputs[0].id).toBe(outputId);
    } finally {
      cfg.cleanup();
    }
  });
});

describe('a cancel that does not take', () => {
  const api = useFakeJobApi();

  it('cancel --wait follows the job and says the cancel did not take when it succeeds anyway (the reference server in front of an engine without the route)', async () => {
    const running = jobJson('uncancelable', 'running');
    api().add({ state: { ...running, status: 'succeeded' }, reads: [running, running, running], onCancel: () => ({ ...running, status: 'canceling' }) });
    const res = await runWes(['jobs', 'cancel', 'uncancelable', '--wait', '--interval', '0.05', '--no-events'], { env: { WES_BASE_URL: api().url } });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('asked to cancel job uncancelable, but it is still running: this service may not stop it, and it may run on to the end');
    expect(res.stderr).toContain('note: the cancel did not take effect: job uncancelable ran to the end and succeeded');
  });
});
