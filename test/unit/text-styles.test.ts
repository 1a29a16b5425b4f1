// The styles a stream prints with: plain text off a terminal (chalk not needed, not loaded),
// chalk's 16-colour codes on one; chalk is loaded by IOStreams.open before a stream needs it.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { IOStreamsInit } from '../../src/render/io.js';

const STYLES = ['red', 'green', 'yellow', 'bold', 'dim'] as const;

function init(stdoutIsTTY: boolean, stderrIsTTY: boolean, env: NodeJS.ProcessEnv = { TERM: 'xterm-256color' }): IOStreamsInit {
  return { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY, stderrIsTTY, env };
}

/** The modules afresh: chalk not loaded yet in them. */
async function fresh() {
  vi.resetModules();
  return { styles: await import('../../src/render/styles.js'), io: await import('../../src/render/io.js') };
}

describe('text styles', () => {
  it('off a terminal every style is the text itself, and no chalk is needed', async () => {
    const { io } = await fresh();
    const streams = new io.IOStreams(init(false, false));
    for (const style of [streams.outStyle, streams.errStyle]) {
      expect(style.level).toBe(0);
      for (const name of STYLES) expect(style[name]('a b\nc')).toBe('a b\nc');
    }
  });

  it('a stream that gets colour needs chalk loaded first: the constructor says so, open() loads it', async () => {
    const { io } = await fresh();
    expect(() => new io.IOStreams(init(false, true))).toThrow(/IOStreams\.open/);
    const streams = await io.IOStreams.open(init(false, true));
    expect(streams.errStyle.level).toBe(1);
    expect(streams.outStyle.level).toBe(0);
    expect(streams.outStyle.red('x')).toBe('x');
  });

  it("on a terminal the styles are chalk's basic codes", async () => {
    const { io } = await fresh();
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    const streams = await io.IOStreams.open(init(true, true));
    for (const style of [streams.outStyle, streams.errStyle]) {
      for (const name of STYLES) expect(style[name]('a b\nc')).toBe(chalk[name]('a b\nc'));
    }
    expect(streams.errStyle.red('error:')).toBe('\u001b[31merror:\u001b[39m');
    expect(streams.outStyle.bold('KEY')).toBe('\u001b[1mKEY\u001b[22m');
  });

  it('the colour decision is the same as before: NO_COLOR, --no-color and CLICOLOR=0 turn it off, CLICOLOR_FORCE on', async () => {
    const { io } = await fresh();
    for (const [env, noColor] of [[{ NO_COLOR: '1' }, false], [{}, true], [{ CLICOLOR: '0' }, false], [{ TERM: 'dumb' }, false]] as const) {
      const streams = await io.IOStreams.open({ ...init(true, true, { TERM: 'xterm', ...env }), noColor });
      expect([streams.outStyle.level, streams.errStyle.level]).toEqual([0, 0]);
    }
    const forced = await io.IOStreams.open(init(false, false, { CLICOLOR_FORCE: '1' }));
    expect([forced.outStyle.level, forced.errStyle.level]).toEqual([1, 1]);
    expect(forced.errStyle.yellow('hint:')).toBe('\u001b[33mhint:\u001b[39m');
  });
});
