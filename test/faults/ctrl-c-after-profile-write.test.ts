// Writing a profile loads conf, whose atomic write (atomically, through when-exit) hooks every exit
// signal and re-sends the first one. Those hooks are taken off as conf loads: after `auth login`,
// `config set` and the other writes the process has no signal listener it did not have before, and
// a Ctrl-C in that process stops in order (130, the way on said) at once, as in any other command.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childProcessEnv, runWes, tempConfigDir } from '../helpers/cli.js';
import { imageWorkflow, submitJob, useDevServer } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';

const ctx = useDevServer({ stepMs: 20 });
const CLI = pathToFileURL(resolve(import.meta.dirname, '../../dist/cli.js')).href;
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'];

function signalListeners(): number[] {
  return SIGNALS.map((signal) => process.listenerCount(signal));
}

describe('Ctrl-C after a profile write', () => {
  it('auth login, config set, profiles use and config unset leave no signal listener behind', async () => {
    const config = tempConfigDir();
    try {
      const before = signalListeners();
      const env = { WES_BASE_URL: ctx.server.url };
      const runs = [
        await runWes(['auth', 'login', '--with-token'], { configDir: config.dir, input: `${ctx.server.apiKey}\n`, env }),
        await runWes(['config', 'set', 'read_timeout', '20'], { configDir: config.dir, env }),
        await runWes(['profiles', 'use', 'default'], { configDir: config.dir, env }),
        await runWes(['config', 'unset', 'read_timeout'], { configDir: config.dir, env }),
      ];
      for (const res of runs) expect(res.code, res.stderr).toBe(0);
      expect(signalListeners()).toEqual(before);
    } finally {
      config.cleanup();
    }
  });

  it('a process that wrote its profile and then watches a job: one Ctrl-C stops it in order (the cancel asked for is made), 130', async () => {
    const id = (await submitJob(ctx.server, imageWorkflow({ prefix: 'ctrlc', steps: 150 }))).body.id as string;
    const config = tempConfigDir();
    // One process runs `config set` (conf loads and writes) and then `jobs watch`, as bin/wes.js runs one.
    const script = `
      const { main } = await import(process.argv[1]);
      const set = await main(['config', 'set', 'base_url', process.env.WES_BASE_URL]);
      if (set !== 0) process.exit(50 + set);
      process.exitCode = await main(process.argv.slice(2));`;
    try {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, CLI, 'jobs', 'watch', id, '--interval', '0.1', '--cancel-on-interrupt'], {
        env: { ...childProcessEnv(), WES_CONFIG_DIR: config.dir, WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey! },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let sent = false;
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (!sent && /running/.test(stderr)) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.on('exit', (c, s) => done([c, s])));
      expect(signal, stderr).toBeNull();
      expect(code, stderr).toBe(130);
      // The orderly stop takes a request: a re-sent signal taken for a second Ctrl-C would exit before it.
      expect(stderr).toContain(`interrupted: asked the service to cancel job ${id}`);
      // The cancel reached the service: the job is canceling, and canceled once its step ends.
      expect(['canceling', 'canceled']).toContain(ctx.server.state.engine.get(id)?.status);
      await until(() => ctx.server.state.engine.get(id)?.status === 'canceled', `job ${id} canceled`);
    } finally {
      config.cleanup();
    }
  });
});
