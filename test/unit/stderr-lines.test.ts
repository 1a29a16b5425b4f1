// The kinds of stderr line IOStreams writes: info (hidden by --quiet), transient (a passing state
// such as a retry wait, drawn on a running spinner), notice (an outcome) and warn (something wrong).
import { describe, expect, it } from 'vitest';
import { IOStreams } from '../../src/render/io.js';
import { testIO } from '../helpers/test-io.js';

describe('IOStreams lines on stderr', () => {
  function streams(quiet: boolean) {
    const io = testIO();
    return { io, streams: new IOStreams({ ...io, env: {}, quiet }) };
  }

  it('notice (an outcome) and warn survive --quiet; info and transient do not', () => {
    const { io, streams: s } = streams(true);
    s.info('info');
    s.transient('retrying in 2 s');
    s.notice('kept part.bin');
    s.warn('warning: odd');
    expect(io.stderr.text()).toBe('kept part.bin\nwarning: odd\n');
  });

  it('transient goes to a running spinner instead of a line of its own', () => {
    const { io, streams: s } = streams(false);
    const shown: string[] = [];
    const release = s.takeTransient((line) => shown.push(line));
    s.transient('retrying in 2 s');
    release();
    s.transient('retrying in 4 s');
    expect(shown).toEqual(['retrying in 2 s']);
    expect(io.stderr.text()).toBe('retrying in 4 s\n');
  });
});
