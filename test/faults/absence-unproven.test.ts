// Issue 43: a lost submit on a busy self-hosted server, where other clients made more jobs than
// one list page holds after the send. The reference server says `truncated: false` for a full
// page however many older jobs exist, so a page of newer jobs proves nothing: the submit stays in
// doubt (exit 11, the key and the find command) and nothing is sent again; a batch resume keeps
// such a line on "find".
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineId } from '../../src/features/batch/input.js';
import { addFaults, imageWorkflow, postJson } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { engineJobs, quickWorkflow, resultsFile, writeBatch } from '../cli/batch-env.js';
import { countsFrom, jobsTagged, useFaultServer } from './kit.js';
import { until } from '../helpers/until.js';

const SUBMIT = 'POST /api/v2/jobs';
const NEWER = 120;

describe('a lost submit whose job is older than the first list page', () => {
  const fx = useFaultServer({ deployment: 'self-hosted', stepMs: 1, maxQueue: 2000 });
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();
  /** Jobs other clients make (straight into the engine), each newer than everything before. */
  const othersMake = (n: number) => {
    for (let i = 0; i < n; i++) fx.server.state.engine.submit(imageWorkflow({ steps: 1, prefix: 'others' }), undefined, 'v2', { metadata: `someone else ${i}` });
  };

  it('jobs submit: exit 11 naming the key and `wes jobs find --key`, one POST, one job', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'busy-lost', steps: 1 }));
    // The answer is lost; the search's first list read waits long enough for 120 newer jobs to be
    // made (any read after it comes later still: holding three cost the file 4 s).
    await addFaults(fx.server, [
      { match: SUBMIT, action: 'lose' },
      { match: 'GET /api/v2/jobs', action: 'delay', delay_ms: 1500, count: 1 },
    ]);
    const counts = countsFrom(fx.server);
    const running = wes(['jobs', 'submit', flow, '--idempotency-key', 'busy-lost-key']);
    await until(() => jobsTagged(fx.server, 'busy-lost').length === 1, 'the lost submit\'s job', 20_000);
    othersMake(NEWER);
    const res = await running;
    expect(res.code, res.stderr).toBe(11);
    expect(res.stderr).toContain('may or may not have made a job');
    expect(res.stderr).toContain('wes jobs find --key busy-lost-key');
    expect(res.stderr).not.toContain('submitting again is safe');
    expect(counts.delta(SUBMIT)).toBe(1);
    expect(jobsTagged(fx.server, 'busy-lost')).toHaveLength(1);

    // The find command cannot prove it either: not found among the newest, not "made none".
    const find = await wes(['jobs', 'find', '--key', 'busy-lost-key']);
    expect(find.code).toBe(5);
    expect(find.stderr).toContain('is among the 100 newest');
    expect(find.stderr).not.toContain('no job on the server carries');
  }, 90_000);

  it('a batch resume keeps such a line on "find": in doubt again, never sent again', async () => {
    const file = writeBatch(dir(), 'busy.jsonl', [quickWorkflow('busy-line', 1), quickWorkflow('busy-line', 2)]);
    const results = join(dir(), 'busy-results.jsonl');
    // A run killed right after sending line 1 left its send in the journal; its job was made, and
    // then 120 jobs of other clients.
    const key = 'busy-line-key';
    const sentAt = Date.now();
    const made = await postJson(fx.server, '/api/v2/jobs', { workflow: quickWorkflow('busy-line', 1), metadata: `wes-key:${key}` }, { 'idempotency-key': key });
    expect(made.status).toBe(201);
    othersMake(NEWER);
    const lineOne = lineId(realpathSync(file), 1, JSON.stringify(quickWorkflow('busy-line', 1)), []);
    writeFileSync(`${results}.journal`, JSON.stringify({ index: 1, idempotency_key: key, sent_to: fx.server.url, sent_at: sentAt, line_id: lineOne }) + '\n');
    const counts = countsFrom(fx.server);
    const resume = () => wes(['jobs', 'submit', '--batch', file, '--resume', results, '--results', results, '--interval', '0.05']);
    const first = await resume();
    expect(first.code, first.stderr).toBe(11);
    const [one, two] = resultsFile(results);
    expect(one).toMatchObject({ index: 1, status: 'in_doubt', job_id: null, idempotency_key: key, error: { code: 'in_doubt', exit_code: 11 } });
    expect(one).not.toHaveProperty('resubmitted');
    expect(two!.status).toBe('succeeded');
    expect(counts.delta(SUBMIT)).toBe(1); // line 2 only

    const second = await resume();
    expect(second.code).toBe(11);
    expect(resultsFile(results)[0]).toMatchObject({ status: 'in_doubt', idempotency_key: key });
    expect(counts.delta(SUBMIT)).toBe(1);
    expect(engineJobs(fx.server, 'busy-line')).toHaveLength(2);
  }, 90_000);
});
