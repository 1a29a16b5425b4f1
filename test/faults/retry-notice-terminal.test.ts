// On a terminal the retry line takes the spinner's place (redrawn in place) instead of breaking
// it with a line of its own; the next change of the job replaces it again.
import { describe, expect, it } from 'vitest';
import { runProgram, tempConfigDir } from '../helpers/cli.js';
import { addFaults, imageWorkflow, submitJob } from '../helpers/dev-server.js';
import { testIO } from '../helpers/test-io.js';
import { until } from '../helpers/until.js';
import { useFaultServer } from './kit.js';

const fx = useFaultServer({ stepMs: 20 });
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

describe('retry notice on a spinner', () => {
  it('is drawn in place on the spinner line, not printed as a line of its own', async () => {
    const config = tempConfigDir();
    try {
      const id = (await submitJob(fx.server, imageWorkflow({ prefix: 'rnt', steps: 150 }))).body.id as string;
      const io = testIO({ stderrTTY: true });
      const env = { WES_CONFIG_DIR: config.dir, WES_BASE_URL: fx.server.url, WES_API_KEY: fx.server.apiKey! };
      const watching = runProgram(['jobs', 'watch', id, '--no-events', '--interval', '0.05'], { io, env, terminal: true });
      // The fault goes in once the spinner is up, so the retry happens under it.
      await until(() => /[\u2800-\u28ff]/.test(io.stderr.text()), 'the spinner');
      await addFaults(fx.server, { match: `GET /api/v2/jobs/${id}`, action: 'status', status: 503, retry_after: 1 });
      expect(await watching).toBe(0);
      const screen = io.stderr.text();
      // Each redraw clears the line first; the notice is one of those redraws.
      const redraws = screen.split('\u001b[1G\u001b[0K').map((part) => part.replace(ANSI, ''));
      expect(redraws.some((r) => r.includes('service busy (503); retrying in 1 s (attempt 2/5)'))).toBe(true);
      expect(screen.replace(ANSI, '')).not.toMatch(/^service busy/m);
    } finally {
      config.cleanup();
    }
  });
});
