// `wes jobs submit --batch` through the binary: mixed outcomes and the exit code, --set per line
// and per batch, --download folders, local refusals, a refused credential halting the batch, and
// Ctrl-C followed by --resume. 200 jobs through a small queue: batch-scale.test.ts.
import { existsSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { lineId } from '../../src/features/batch/input.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFaults, postJson, useDevServer } from '../helpers/dev-server.js';
import { failWorkflow, interruptWhen, seen, useTempDir, wesAgainst } from './jobs-env.js';
import { engineJobs, quickWorkflow, readResultLines, resultsFile, writeBatch } from './batch-env.js';

describe('jobs submit --batch', () => {
  const ctx = useDevServer({ faults: true, stepMs: 2, slots: 2, jobList: true });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('mixed outcomes in input order, the gravest exit code, --set per line and per batch, --download folders', async () => {
    const file = writeBatch(dir(), 'mixed.jsonl', [
      quickWorkflow('mixed', 1),
      { workflow: failWorkflow('line two breaks'), set: { '3.filename_prefix': 'mixed-2' } },
      '',
      { '1': { class_type: 'NoSuchNode', inputs: {} }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'mixed-4' } } },
      { workflow: quickWorkflow('mixed', 5), set: { '2.filename_prefix': 'mixed-5-renamed' } },
    ]);
    const out = join(dir(), 'mixed-out');
    const res = await wes(['jobs', 'submit', '--batch', file, '--set', '1.width=6', '--download', out, '--interval', '0.05']);
    expect(res.code).toBe(6); // refused (6) outranks failed (3)
    const results = readResultLines(res.stdout);
    expect(results.map((r) => [r.index, r.status])).toEqual([[1, 'succeeded'], [2, 'failed'], [4, 'refused'], [5, 'succeeded']]);
    expect(results[1]!.error).toMatchObject({ code: 'execution_error', exit_code: 3 });
    expect(results[1]!.error!.message).toContain('line two breaks');
    expect(results[2]).toMatchObject({ job_id: null, error: { code: 'invalid_workflow', status: 422, exit_code: 6 } });
    expect(results[3]!.outputs[0]!.name).toBe('mixed-5-renamed_00001_.png');
    const first = results[0]!;
    expect(first.outputs[0]).toMatchObject({ verified: true, path: join(out, `1-${first.job_id}`, 'mixed-1_00001_.png') });
    expect(existsSync(first.outputs[0]!.path!)).toBe(true);
    expect(readdirSync(out).sort()).toEqual([`1-${first.job_id}`, `5-${results[3]!.job_id}`].sort());
    const job = ctx.server.state.engine.get(first.job_id!)!;
    expect((job.workflow['1'] as unknown as { inputs: { width: number } }).inputs.width).toBe(6);
    expect(res.stderr).toMatch(/line 2: job \S+ failed: execution_error: .*line two breaks/);

    // A resume keeps what succeeded and what failed for good (its job stands), and sends again only
    // the line the server refused (it made nothing), under a new key.
    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const earlier = writeBatch(dir(), 'mixed-results.jsonl', results);
    const resumed = await wes(['jobs', 'submit', '--batch', file, '--set', '1.width=6', '--resume', earlier, '--interval', '0.05']);
    expect(resumed.code).toBe(6);
    const again = readResultLines(resumed.stdout);
    expect(again[0]).toEqual(first);
    expect(again[1]).toEqual(results[1]);
    expect(again[3]).toEqual(results[3]);
    expect(again[2]!.idempotency_key).not.toBe(results[2]!.idempotency_key);
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBe(1);
    expect(resumed.stderr).toContain('resuming: 2 of 4 line(s) already succeeded');

    // --retry-failed asks for a new job for the line whose job failed.
    const retried = await wes(['jobs', 'submit', '--batch', file, '--set', '1.width=6', '--resume', earlier, '--retry-failed', '--interval', '0.05']);
    const third = readResultLines(retried.stdout);
    expect(third[1]!.job_id).not.toBe(results[1]!.job_id);
    expect(third[1]!.status).toBe('failed');
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBe(3);
  });

  it('a line whose answer was lost before a crash: resumed, its job found by the key its label names, one job, not two', async () => {
    const file = writeBatch(dir(), 'lost.jsonl', [quickWorkflow('lost-line', 1), quickWorkflow('lost-line', 2)]);
    const results = join(dir(), 'lost-results.jsonl');
    // What a run killed right after sending line 1 leaves: its send in the journal, no answer. The
    // server made the job (the answer was what got lost).
    const key = 'crashed-before-the-answer';
    const made = await postJson(ctx.server, '/api/v2/jobs', { workflow: quickWorkflow('lost-line', 1), metadata: `wes-key:${key}` }, { 'idempotency-key': key });
    expect(made.status).toBe(201);
    const lineOne = lineId(realpathSync(file), 1, JSON.stringify(quickWorkflow('lost-line', 1)), []);
    writeFileSync(`${results}.journal`, JSON.stringify({ index: 1, idempotency_key: key, sent_to: ctx.server.url, sent_at: Date.now(), line_id: lineOne }) + '\n');
    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const res = await wes(['jobs', 'submit', '--batch', file, '--resume', results, '--results', results, '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    const [one, two] = resultsFile(results);
    expect(one).toMatchObject({ job_id: made.body.id, status: 'succeeded', idempotency_key: key, found_by_key: true });
    expect(two!.status).toBe('succeeded');
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBe(1); // line 2 only
    expect(engineJobs(ctx.server, 'lost-line')).toHaveLength(2);
  });

  it('follows jobs like watch does: the event stream wakes the poll (an hour\'s interval still ends at once); --no-events polls only', async () => {
    // Jobs that outlast the first read (a job over by then needs no stream at all).
    const file = writeBatch(dir(), 'events.jsonl', Array.from({ length: 6 }, (_, i) => quickWorkflow('events', i + 1, { steps: 40 })));
    const events = () => [...ctx.server.state.requestCounts].filter(([k]) => k.endsWith('/events')).reduce((n, [, v]) => n + v, 0);
    const before = events();
    // Polling once an hour: the batch ends only because the event streams woke the reads.
    const woken = await wes(['jobs', 'submit', '--batch', file, '--concurrency', '3', '--interval', '3600']);
    expect(woken.code, woken.stderr).toBe(0);
    expect(events() - before).toBeGreaterThan(0);
    const polled = writeBatch(dir(), 'polled.jsonl', Array.from({ length: 3 }, (_, i) => quickWorkflow('polled', i + 1)));
    const quiet = events();
    const res = await wes(['jobs', 'submit', '--batch', polled, '--no-events', '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    expect(events()).toBe(quiet);
  });

  it('refuses locally before sending anything: a bad line (named), single-job flags, no input at all', async () => {
    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const file = writeBatch(dir(), 'bad.jsonl', [quickWorkflow('bad', 1), '{"1": {', { nodes: [], links: [] }, { workflow: quickWorkflow('bad', 4), set: { '9.seed': 1 } }]);
    const bad = await wes(['jobs', 'submit', '--batch', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('3 line(s) of the batch cannot be submitted; nothing was sent');
    expect(bad.stderr).toMatch(/line 2, column \d+: not valid JSON/);
    expect(bad.stderr).toMatch(/line 3: a workflow in UI format/);
    expect(bad.stderr).toMatch(/line 4: .*no node "9"/);
    const good = writeBatch(dir(), 'good.jsonl', [quickWorkflow('flags', 1)]);
    for (const args of [
      ['jobs', 'submit', '--batch', good, '--idempotency-key', 'k'],
      ['jobs', 'submit', 'flow.json', '--batch', good],
      ['jobs', 'submit', '--batch', good, '--concurrency', '0'],
      ['jobs', 'submit'],
      ['jobs', 'submit', '--batch', writeBatch(dir(), 'blank.jsonl', ['', '  '])],
      ['jobs', 'submit', '--batch', good, '--resume', join(dir(), 'missing.jsonl')],
    ]) {
      const res = await wes(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
    }
    expect(seen(ctx.server, 'POST /api/v2/jobs')).toBe(posts);
  });

  it('a refused credential halts the batch: the rest is not submitted, exit 4', async () => {
    const file = writeBatch(dir(), 'auth.jsonl', Array.from({ length: 20 }, (_, i) => quickWorkflow('auth', i + 1)));
    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const res = await wes(['jobs', 'submit', '--batch', file, '--concurrency', '3'], { env: { WES_API_KEY: 'not-the-key' } });
    expect(res.code).toBe(4);
    const results = readResultLines(res.stdout);
    expect(results).toHaveLength(20);
    expect(results.filter((r) => r.status === 'refused').length).toBeLessThanOrEqual(3);
    expect(results.filter((r) => r.status === 'not_submitted').length).toBeGreaterThanOrEqual(17);
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBeLessThanOrEqual(3);
    expect(res.stderr).toContain('stopped submitting');
  });

  it('--timeout ends a batch like Ctrl-C does, with exit 8: every line has a result, the jobs keep running', async () => {
    // Jobs of 3 s (ten samplers of 150 steps of 2 ms) and a 2 s deadline: the first two are running
    // when it passes, however slowly the machine starts wes (a 0.3 s job once ended before it did).
    const file = writeBatch(dir(), 'deadline.jsonl', Array.from({ length: 6 }, (_, i) => quickWorkflow('deadline', i + 1, { steps: 150, samplers: 10 })));
    const res = await wes(['jobs', 'submit', '--batch', file, '--concurrency', '2', '--timeout', '2', '--interval', '0.05']);
    expect(res.code).toBe(8);
    expect(res.stderr).toMatch(/timed out; stopped submitting, \d job\(s\) keep running on the service/);
    // The hint repeats the pace flags and points at the lines printed on stdout.
    expect(res.stderr).toContain(`resume with: wes jobs submit --batch ${file} --concurrency 2 --interval 0.05 --resume RESULTS.jsonl   (RESULTS.jsonl: the lines this run printed on stdout)`);
    const results = readResultLines(res.stdout);
    expect(results.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.filter((r) => r.status === 'not_submitted').every((r) => r.error?.exit_code === 8)).toBe(true);
    const running = results.filter((r) => r.job_id !== null && r.status !== 'succeeded');
    expect(running.length).toBeGreaterThan(0);
    for (const r of running) expect(r.error).toMatchObject({ code: 'timeout', exit_code: 8 });
    // Checked: they keep running. Stopped now, or their 9 s of 2 ms steps would run through the next test.
    for (const id of engineJobs(ctx.server, 'deadline')) ctx.server.state.engine.cancel(id);
  });

  it('Ctrl-C stops submitting and leaves a results file; --resume completes it without a second job for any line', async () => {
    const lines = Array.from({ length: 24 }, (_, i) => quickWorkflow('resume', i + 1, { steps: 20 }));
    const file = writeBatch(dir(), 'resume.jsonl', lines);
    const results = join(dir(), 'resume-results.jsonl');
    const first = await wes(['jobs', 'submit', '--batch', file, '--results', results, '--interval', '0.05'], {
      onSpawn: interruptWhen(/(line \d+: job \S+ succeeded[^\n]*\n[^]*){5}/),
    });
    expect(first.code, first.stderr).toBe(130);
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain(`resume with: wes jobs submit --batch ${file} --interval 0.05 --resume ${results} --results ${results}`);
    const partial = resultsFile(results);
    expect(partial.map((r) => r.index)).toEqual(lines.map((_, i) => i + 1));
    const succeeded = partial.filter((r) => r.status === 'succeeded').length;
    expect(succeeded).toBeGreaterThanOrEqual(5);
    expect(succeeded).toBeLessThan(24);
    expect(partial.some((r) => r.status === 'not_submitted')).toBe(true);
    const running = partial.filter((r) => r.job_id && r.status !== 'succeeded');
    for (const r of running) expect(r.error?.code).toBe('interrupted');

    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const second = await wes(['jobs', 'submit', '--batch', file, '--resume', results, '--results', results, '--interval', '0.05']);
    expect(second.code, second.stderr).toBe(0);
    const complete = resultsFile(results);
    expect(complete.map((r) => r.index)).toEqual(lines.map((_, i) => i + 1));
    expect(complete.every((r) => r.status === 'succeeded' && r.error === null)).toBe(true);
    // Jobs running at Ctrl-C were followed (read, not submitted again); a submit cut short was
    // looked for by its key; only lines never sent were submitted: 24 lines, 24 jobs, no more.
    const jobs = engineJobs(ctx.server, 'resume');
    expect(jobs).toHaveLength(24);
    expect(new Set(complete.map((r) => r.job_id))).toEqual(new Set(jobs));
    for (const r of running) expect(complete[r.index - 1]!.job_id).toBe(r.job_id);
    const neverSent = partial.filter((r) => r.status === 'not_submitted').length;
    const cutShort = partial.filter((r) => r.job_id === null && r.status !== 'not_submitted').length;
    const resent = seen(ctx.server, 'POST /api/v2/jobs') - posts;
    expect(resent).toBeGreaterThanOrEqual(neverSent);
    expect(resent).toBeLessThanOrEqual(neverSent + cutShort);
  });
});

describe('jobs submit --batch on a server without a job list', () => {
  const ctx = useDevServer({ faults: true, stepMs: 2, jobList: false });
  // Comfy Cloud, pinned: the lost POST is the one that made the job, not a refusal of labels.
  const base = wesAgainst(() => ctx.server);
  const wes: typeof base = (args, opts = {}) => base(args, { ...opts, env: { WES_JOB_API: 'cloud', ...opts.env } });
  const dir = useTempDir();

  it('a line whose answer was lost stays in doubt (exit 11, never sent again) until --resubmit-in-doubt asks for a new key', async () => {
    const file = writeBatch(dir(), 'doubt.jsonl', [quickWorkflow('doubt', 1), quickWorkflow('doubt', 2)]);
    const results = join(dir(), 'doubt-results.jsonl');
    await addFaults(ctx.server, { match: 'POST /api/v2/jobs', action: 'lose' });
    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const first = await wes(['jobs', 'submit', '--batch', file, '--results', results, '--concurrency', '1', '--interval', '0.05']);
    expect(first.code).toBe(11);
    const [lost, fine] = resultsFile(results);
    expect(lost).toMatchObject({ index: 1, status: 'in_doubt', job_id: null, error: { code: 'in_doubt', exit_code: 11 }, endpoint: ctx.server.url });
    expect(lost!.error!.message).toContain('may or may not have made a job');
    expect(fine!.status).toBe('succeeded');
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBe(2);

    // Running the batch again onto its results is refused: it would make every job again.
    const again = await wes(['jobs', 'submit', '--batch', file, '--results', results]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--resume ${results}`);

    // --resume alone sends nothing: the line is still in doubt.
    const resumed = await wes(['jobs', 'submit', '--batch', file, '--resume', results, '--results', results, '--interval', '0.05']);
    expect(resumed.code).toBe(11);
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBe(2);
    expect(resultsFile(results)[0]!.status).toBe('in_doubt');

    // The user asks: the line goes under a new key, and the results say so.
    const forced = await wes(['jobs', 'submit', '--batch', file, '--resume', results, '--results', results, '--resubmit-in-doubt', '--interval', '0.05']);
    expect(forced.code, forced.stderr).toBe(0);
    const [redone] = resultsFile(results);
    expect(redone).toMatchObject({ status: 'succeeded', resubmitted: { previous_key: lost!.idempotency_key, because: 'resubmit_in_doubt' } });
    expect(redone!.idempotency_key).not.toBe(lost!.idempotency_key);
    expect(engineJobs(ctx.server, 'doubt')).toHaveLength(3); // the lost answer's job, line 2's, and the one asked for
  });
});
