// A batch killed with SIGKILL (a CI runner's timeout, the OOM killer) at random moments and
// resumed each time: the journal next to the results file says which lines finished and where
// the others went, so the last run ends with every line succeeded and no line ever made a second
// job. The moments (a number of new jobs, or a time during start-up) come from a seeded
// generator, printed on failure.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/dev-server/engine/prng.js';
import { useDevServer } from '../helpers/dev-server.js';
import { seen, useTempDir, wesAgainst } from './jobs-env.js';
import { engineJobs, quickWorkflow, randomKill, resultsFile, writeBatch } from './batch-env.js';

describe('jobs submit --batch killed with SIGKILL and resumed', () => {
  // 160 ms jobs on four slots: the kills wait for new jobs rather than for time, so they land
  // mid-run at any speed, and the server keeps up with the batch.
  // The server keeps a job list (as the reference self-hosted server does): a submit cut short by a kill is looked for there by its key.
  const ctx = useDevServer({ stepMs: 2, slots: 4, jobList: true });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('30 lines, 10 kills at random moments: 30 succeeded results and exactly 30 jobs', async () => {
    const seed = Number(process.env.WES_CRASH_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const lines = Array.from({ length: 30 }, (_, i) => quickWorkflow('crash', i + 1, { steps: 80 }));
    const file = writeBatch(dir(), 'crash.jsonl', lines);
    const results = join(dir(), 'crash-results.jsonl');
    const args = ['jobs', 'submit', '--batch', file, '--concurrency', '4', '--interval', '0.05', '--results', results];
    const kills: string[] = [];
    let killed = 0;
    for (let round = 0; round < 10; round++) {
      const kill = randomKill(random, [ctx.server]);
      kills.push(kill.label);
      const res = await wes(round === 0 ? args : [...args, '--resume', results], { onSpawn: kill.onSpawn });
      if (res.signal === 'SIGKILL') killed++;
      else {
        // The run finished before its kill: it must have finished cleanly.
        expect(res.code, `seed ${seed}, kills ${kills.join(',')}: ${res.stderr}`).toBe(0);
      }
    }
    // Most kills land (a run that finishes first proves less, but must end cleanly).
    expect(killed, `seed ${seed}, kills ${kills.join(',')}`).toBeGreaterThanOrEqual(5);
    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const last = await wes(existsSync(results) || existsSync(`${results}.journal`) ? [...args, '--resume', results] : args);
    expect(last.code, `seed ${seed}, kills ${kills.join(',')}: ${last.stderr}`).toBe(0);

    const complete = resultsFile(results);
    expect(complete.map((r) => r.index)).toEqual(lines.map((_, i) => i + 1));
    expect(complete.every((r) => r.status === 'succeeded' && r.error === null), `seed ${seed}`).toBe(true);
    const jobs = engineJobs(ctx.server, 'crash');
    expect(jobs, `seed ${seed}, kills ${kills.join(',')}`).toHaveLength(30);
    expect(new Set(complete.map((r) => r.job_id))).toEqual(new Set(jobs));
    // The last run sent only what was unfinished, and left no journal or partial file behind.
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBeLessThanOrEqual(30);
    expect(readdirSync(dir()).filter((name) => name.startsWith('crash-results'))).toEqual(['crash-results.jsonl']);
  }, 90_000);
});
