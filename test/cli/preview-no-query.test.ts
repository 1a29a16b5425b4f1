// `jobs watch --preview` asks the terminal about pictures (an escape sequence on stdout, then up to
// 300 ms for the answer, in raw mode) only when a preview can be drawn: not with --no-events
// (previews come on the event stream) and not for a job that has already ended. It once asked
// first and then said there would be no previews.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { imageWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { atPace, hurriedFrom } from '../helpers/hurry.js';

const dev = useDevServer({ stepMs: 20 });
/** The start of the terminal query: the cell size request (CSI 16 t). */
const QUERY = '\x1b[16t';

/** On a terminal whose stdin is one too (so it can be asked) and whose TERM=xterm does not say. */
function watch(args: string[]) {
  return runWes(['jobs', 'watch', ...args, '--interval', '0.05'], {
    terminal: { stdinTTY: true, stdoutTTY: true, stderrTTY: true },
    env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey!, TERM: 'xterm' },
  });
}

describe('jobs watch --preview asks the terminal only when it may draw', () => {
  // The job must still run when wes attaches: its steps take 100 ms (6 s in all) until wes has opened
  // the event stream, however slowly a busy worker first loads the verb (at 20 ms, 1.2 s, it once
  // ended first: wes then rightly did not ask); then the engine is hurried to the end.
  it('with the event stream, it asks (and, with no answer, says why there are no pictures)', () =>
    atPace(dev.server, 100, async () => {
      const id = (await submitJob(dev.server, imageWorkflow({ steps: 60 }))).body.id as string;
      const events = `GET /api/v2/jobs/${id}/events`;
      const run = await hurriedFrom(dev.server, () => (dev.server.state.requestCounts.get(events) ?? 0) >= 1, watch([id, '--preview']));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(QUERY);
      expect(run.stderr).toContain('the terminal did not answer within 300 ms');
    }));

  it('with --no-events, it does not ask, and says once why there are no previews', async () => {
    const id = (await submitJob(dev.server, imageWorkflow({ steps: 60 }))).body.id as string;
    const run = await watch([id, '--preview', '--no-events']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(QUERY);
    expect(run.stderr.match(/no preview pictures with --no-events: previews come on the event stream/g)).toHaveLength(1);
  });

  it('for a job that has already ended, it does not ask', async () => {
    const id = (await submitJob(dev.server, imageWorkflow({ steps: 1 }))).body.id as string;
    await waitForJob(dev.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const run = await watch([id, '--preview']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(QUERY);
  });
});
