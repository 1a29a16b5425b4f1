// wes legacy queue clear: every pending prompt taken off (POST /api/queue {clear: true}), the running
// one left alone, on the imitation of ComfyUI 0.3.18 and 0.3.64 and on the cloud API v1. Off a
// terminal it needs --yes; on one it asks, and only a yes clears.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { startFast } from '../helpers/dev-server.js';
import { tempConfigDir } from '../helpers/cli.js';
import { longWorkflow, submit, v1 } from '../dev-server/legacy-kit.js';
import { until } from '../helpers/until.js';
import { wesAgainst } from './jobs-env.js';

const SERVERS: Array<[string, DevServerOptions]> = [
  ['ComfyUI 0.3.18', { deployment: 'self-hosted', engineOnly: true, engineVersion: '0.3.18' }],
  ['ComfyUI 0.3.64', { deployment: 'self-hosted', engineOnly: true, engineVersion: '0.3.64' }],
  ['the cloud API v1', { deployment: 'cloud' }],
];

for (const [label, options] of SERVERS) {
  describe(`legacy queue clear on ${label}`, () => {
    let server: DevServerHandle;
    let config: ReturnType<typeof tempConfigDir>;
    beforeAll(async () => {
      server = await startFast({ ...options, stepMs: 20 });
      config = tempConfigDir();
    });
    afterAll(async () => {
      config.cleanup();
      await server.close();
    });
    const run = wesAgainst(() => server);
    const queue = async () => (await v1(server, 'GET', '/api/queue')).body as { queue_running: unknown[][]; queue_pending: unknown[][] };

    it('asks on a terminal, needs --yes off one, and leaves the running prompt alone', async () => {
      const running = await submit(server, longWorkflow('clear-run'));
      await until(async () => (await queue()).queue_running.length === 1);
      const pending = [await submit(server, longWorkflow('clear-a')), await submit(server, longWorkflow('clear-b'))];

      const piped = await run(['legacy', 'queue', 'clear'], { configDir: config.dir });
      expect(piped.code).toBe(2);
      expect(piped.stderr).toMatch(/needs --yes/);
      const declined = await run(['legacy', 'queue', 'clear'], { configDir: config.dir, input: 'n\n', terminal: { stdinTTY: true, stderrTTY: true } });
      expect(declined.code, declined.stderr).toBe(0);
      expect(declined.stderr).toMatch(/take 2 pending prompt\(s\) off the queue\? \[y\/N\][^]*left the queue as it is/);
      expect((await queue()).queue_pending.length).toBe(2);

      const cleared = await run(['legacy', 'queue', 'clear', '--yes', '--json'], { configDir: config.dir });
      expect(cleared.code, cleared.stderr).toBe(0);
      const out = JSON.parse(cleared.stdout.trim().split('\n').pop()!) as { cleared: string[]; running: string[] };
      expect(out.cleared.sort()).toEqual([...pending].sort());
      expect(out.running).toEqual([running]);
      const after = await queue();
      expect([after.queue_pending.length, after.queue_running.map((e) => e[1])]).toEqual([0, [running]]);
      await submit(server, longWorkflow('clear-c'));
      const yes = await run(['legacy', 'queue', 'clear'], { configDir: config.dir, input: 'y\n', terminal: { stdinTTY: true, stderrTTY: true } });
      expect(yes.code, yes.stderr).toBe(0);
      expect(yes.stderr).toMatch(/took 1 pending prompt\(s\) off the queue; 1 running, left alone/);
      expect((await queue()).queue_pending.length).toBe(0);
      await v1(server, 'POST', '/api/interrupt', {});
    });
  });
}
