// `wes auth login` where the base URL's host serves no model router (the published router has a
// host of its own): on a terminal the router's URL is asked for, checked and saved; from a pipe the
// login says how to give it. Where the base URL serves a router, nothing more is asked.
import { describe, expect, it } from 'vitest';
import { runProgram, runWes, tempConfigDir, terminalEnv } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { testIO, type TerminalInput } from '../helpers/test-io.js';
import { until } from '../helpers/until.js';

const engine = useDevServer({ deployment: 'self-hosted', engineOnly: true });
const router = useDevServer({});

/** Types each answer once its question is on stderr, as a person at the terminal would. */
async function loginAtTerminal(configDir: string, answers: Array<[RegExp, string]>): Promise<{ code: number; stderr: string }> {
  const io = testIO({ stdinTTY: true, stderrTTY: true });
  const done = runProgram(['auth', 'login'], { io, env: { ...terminalEnv(), WES_CONFIG_DIR: configDir } });
  for (const [question, answer] of answers) {
    await until(() => question.test(io.stderr.text()), `the question ${question}`);
    (io.stdin as TerminalInput).write(`${answer}\n`);
  }
  const code = await done;
  return { code, stderr: io.stderr.text() };
}

describe('auth login and the router host', () => {
  it('asks for the router URL on a terminal when the base URL serves no router, checks it and saves it', async () => {
    const config = tempConfigDir().dir;
    const r = await loginAtTerminal(config, [
      [/Base URL \[/, engine.server.url],
      [/API key/, ''],
      [/Router credential/, 'wes-dev-key'],
      [/serves no model router\. Router URL \(empty: none\): /, router.server.url],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${engine.server.url} serves no model router. Router URL (empty: none): `);
    expect(r.stderr).toMatch(/✓ saved base_url, router_token, router_url to profile default/);
    expect(r.stderr).toContain(`✓ models: accepted by ${router.server.url}`);
    const saved = await runWes(['config', 'get', 'router_url'], { configDir: config });
    expect(saved.stdout.trim()).toBe(router.server.url);
  });

  it('from a pipe, says how to give the router URL; where the base URL serves a router, asks nothing', async () => {
    const piped = await runWes(['auth', 'login', '--with-token', '--base-url', engine.server.url], { input: 'some-key\n' });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toContain(`! models: ${engine.server.url} serves no model router; give the router's own URL with --router-url URL (or \`wes config set router_url URL\`)`);
    const served = await runWes(['auth', 'login', '--with-token', '--base-url', router.server.url], { input: 'wes-dev-key\n' });
    expect(served.code, served.stderr).toBe(0);
    expect(served.stderr).not.toMatch(/serves no model router/);
  });
});
