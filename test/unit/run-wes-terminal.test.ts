// A test run that says "terminal" sets its own environment: an ordinary colour terminal
// (TERM=xterm-256color, no CI, no colour or picture overrides), whatever the tests run in. CI
// runners set CI=true and no TERM; a terminal test that took its environment from the process once
// passed on a desk and failed in CI.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runProgram, runWes, terminalEnv } from '../helpers/cli.js';
import { testIO } from '../helpers/test-io.js';

const RED_ERROR = '\u001b[31merror:\u001b[39m';
const USAGE_ERROR = ['jobs', 'watch', 'J', '--interval', '0'];

describe('terminal runs are independent of the outer environment', () => {
  afterEach(() => vi.unstubAllEnvs());

  function likeCI(): void {
    vi.stubEnv('CI', 'true');
    vi.stubEnv('TERM', undefined);
    vi.stubEnv('NO_COLOR', '1');
    vi.stubEnv('FORCE_COLOR', '0');
    vi.stubEnv('TERM_PROGRAM', 'iTerm.app');
    vi.stubEnv('WES_PICTURES', 'kitty');
  }

  it('terminalEnv: TERM set, CI and overrides gone, the test\'s own entries on top', () => {
    likeCI();
    const env = terminalEnv({ WES_BASE_URL: 'http://127.0.0.1:1' });
    expect(env.TERM).toBe('xterm-256color');
    for (const name of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'TERM_PROGRAM', 'WES_PICTURES']) expect(env[name], name).toBeUndefined();
    expect(env.WES_BASE_URL).toBe('http://127.0.0.1:1');
    expect(terminalEnv({ TERM: 'xterm', NO_COLOR: '1' })).toMatchObject({ TERM: 'xterm', NO_COLOR: '1' });
  });

  it('runWes with `terminal` colours stderr under CI=true, no TERM and NO_COLOR outside; without it, no colour', async () => {
    likeCI();
    const onTerminal = await runWes(USAGE_ERROR, { terminal: { stderrTTY: true } });
    expect(onTerminal.code).toBe(2);
    expect(onTerminal.stderr).toContain(RED_ERROR);
    const piped = await runWes(USAGE_ERROR);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/^error: /);
    const asked = await runWes(USAGE_ERROR, { terminal: { stderrTTY: true }, env: { NO_COLOR: '1' } });
    expect(asked.stderr).toMatch(/^error: /);
  });

  it('runProgram with `terminal: true` too', async () => {
    likeCI();
    const io = testIO({ stderrTTY: true });
    expect(await runProgram(USAGE_ERROR, { io, env: {}, terminal: true })).toBe(2);
    expect(io.stderr.text()).toContain(RED_ERROR);
  });

  it('a terminal run cannot be a spawned process (its streams are buffers that say they are a TTY)', () => {
    expect(() => runWes(['--version'], { terminal: { stderrTTY: true }, spawn: true })).toThrow(/in-process/);
  });
});
