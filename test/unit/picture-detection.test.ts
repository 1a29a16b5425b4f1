// Which protocol a terminal speaks: what each terminal puts in the environment, and its answers
// to the query (kitty's a=q, the cell size, sixel registers, DA1) read from a stream pair.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { protocolFromEnv } from '../../src/render/pictures/detect.js';
import { parseAnswer, QUERY, queryTerminal } from '../../src/render/pictures/query.js';

describe('picture protocol from the environment', () => {
  const cases: Array<[string, NodeJS.ProcessEnv, unknown]> = [
    ['kitty', { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' }, { protocol: 'kitty' }],
    ['kitty over ssh keeps TERM only', { TERM: 'xterm-kitty' }, { protocol: 'kitty' }],
    ['Ghostty', { TERM: 'xterm-ghostty', TERM_PROGRAM: 'ghostty' }, { protocol: 'kitty' }],
    ['iTerm2', { TERM: 'xterm-256color', TERM_PROGRAM: 'iTerm.app', LC_TERMINAL: 'iTerm2' }, { protocol: 'iterm' }],
    ['iTerm2 over ssh', { TERM: 'xterm-256color', LC_TERMINAL: 'iTerm2' }, { protocol: 'iterm' }],
    ['WezTerm', { TERM: 'xterm-256color', TERM_PROGRAM: 'WezTerm', WEZTERM_PANE: '0' }, { protocol: 'iterm' }],
    ['foot', { TERM: 'foot' }, { protocol: 'sixel' }],
    ['mlterm', { TERM: 'xterm', MLTERM: '3.9.3' }, { protocol: 'sixel' }],
    ['forced', { TERM: 'xterm', WES_PICTURES: 'sixel' }, { protocol: 'sixel', because: 'WES_PICTURES' }],
    ['forced off wins over kitty', { TERM: 'xterm-kitty', WES_PICTURES: 'off' }, { none: 'WES_PICTURES is off' }],
    ['tmux', { TERM: 'tmux-256color', TMUX: '/tmp/tmux-0/default,1,0', TERM_PROGRAM: 'tmux' }, { none: 'tmux and screen do not pass pictures through' }],
    ['dumb', { TERM: 'dumb' }, { none: 'TERM is dumb' }],
    ['Terminal.app', { TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' }, { none: 'Terminal.app shows no pictures' }],
    ['xterm must be asked', { TERM: 'xterm' }, { ask: 'TERM=xterm does not say' }],
  ];
  for (const [name, env, expected] of cases) it(name, () => expect(protocolFromEnv(env)).toMatchObject(expected as object));
});

describe('the terminal query', () => {
  it('reads sixel from DA1 attribute 4, the cell size and the colour registers', () => {
    expect(parseAnswer('\x1b[6;20;10t\x1b[?1;0;256S\x1b[?63;1;2;4;6;9;15;22c')).toEqual({ protocol: 'sixel', cell: { width: 10, height: 20 }, colorRegisters: 256, complete: true });
    expect(parseAnswer('\x1b[?1;2c')).toEqual({ protocol: null, complete: true });
    expect(parseAnswer('\x1b[6;20;10t')).toMatchObject({ protocol: null, complete: false });
  });

  it('prefers kitty when the graphics query is answered OK', () => {
    expect(parseAnswer('\x1b_Gi=31;OK\x1b\\\x1b[?62;4;22c').protocol).toBe('kitty');
    expect(parseAnswer('\x1b_Gi=31;ENOENT:bad\x1b\\\x1b[?62;22c').protocol).toBeNull();
  });

  it('asks in raw mode, stops at the DA1 answer and gives raw mode back', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true, isRaw: false, modes: [] as boolean[], setRawMode(raw: boolean) { this.modes.push(raw); this.isRaw = raw; return this; } });
    const output = new PassThrough();
    const asked: string[] = [];
    output.on('data', (chunk: Buffer) => {
      asked.push(chunk.toString());
      input.write('\x1b[6;16;8t');
      setTimeout(() => input.write('\x1b[?1;0;16S\x1b[?63;4c'), 5);
    });
    const answer = await queryTerminal({ input, output }, 5000);
    expect(asked.join('')).toBe(QUERY);
    expect(answer).toEqual({ protocol: 'sixel', cell: { width: 8, height: 16 }, colorRegisters: 16, complete: true });
    expect(input.modes).toEqual([true, false]);
  });

  it('gives up after the timeout when the terminal says nothing', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
    expect(await queryTerminal({ input, output: new PassThrough() }, 50)).toEqual({ protocol: null, complete: false });
  });
});
