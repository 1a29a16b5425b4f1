// Tables at 80 columns: id columns are never cut, columns that repeat the id go first,
// descriptions wrap; piped output is tab-separated, key/value views included.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IOStreams } from '../../src/render/io.js';
import { fitTable, renderFields, renderTable, wrapText } from '../../src/render/table.js';

function io(tty: boolean, columns = 80): IOStreams {
  return new IOStreams({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: tty, stderrIsTTY: tty, env: { NO_COLOR: '1' }, columns });
}

const LONG_ID = 'a-very-long-provider-name/an-even-longer-model-name-that-goes-on-v2';

describe('tables that fit 80 columns', () => {
  it('keeps a long id whole and drops the provider and model columns that repeat it', () => {
    const out = renderTable(io(true), ['id', 'provider', 'model', 'charged if refused'], [[LONG_ID, 'a-very-long-provider-name', 'an-even-longer-model-name-that-goes-on-v2', 'when_provider_charges']], 'stdout', { keep: [0], drop: [1, 2] });
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^ID\s+CHARGED/);
    expect(lines[1]).toContain(LONG_ID);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
  });

  it('keeps the provider and model when there is room', () => {
    const out = renderTable(io(true), ['id', 'provider', 'model', 'charged if refused'], [['dev/echo', 'dev', 'echo', 'never']], 'stdout', { keep: [0], drop: [1, 2] });
    expect(out.split('\n')[0]).toMatch(/^ID\s+PROVIDER\s+MODEL\s+CHARGED IF REFUSED$/);
  });

  it('wraps a description instead of cutting it, and never shrinks a kept column', () => {
    const description = 'How much detail may be invented when the picture is upscaled; higher values invent more and stray further.';
    const out = renderTable(io(true), ['name', 'type', 'description'], [['creativity_of_the_upscaler_in_full', 'number', description]], 'stdout', { keep: [0], wrap: [2] });
    const lines = out.split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(lines.slice(1).map((l) => l.slice(l.indexOf('number') + 6).trim()).join(' ').replace(/\s+/g, ' ')).toBe(description);
    expect(lines[1]).toContain('creativity_of_the_upscaler_in_full');
    // The rightmost column gives way first, down to 6 characters, then the one before it.
    expect(fitTable([40, 40, 40], 80, { keep: [0] })).toEqual({ shown: [0, 1, 2], widths: [40, 30, 6] });
    expect(fitTable([40, 40, 40], 40, { keep: [0] })).toBeUndefined();
  });

  it('wraps at spaces, and cuts a word only when it is longer than the line', () => {
    expect(wrapText('one two three', 7)).toBe('one two\nthree');
    expect(wrapText('abcdefghij', 4)).toBe('abcd\nefgh\nij');
  });

  it('is tab-separated when piped: tables without a header, and key/value views', () => {
    expect(renderTable(io(false), ['id', 'status'], [['j1', 'ok'], ['j2', 'bad']])).toBe('j1\tok\nj2\tbad');
    expect(renderFields(io(false), [['id', 'j1'], ['status', 'succeeded'], ['empty', '']])).toBe('id\tj1\nstatus\tsucceeded');
    expect(renderFields(io(true), [['id', 'j1'], ['status', 'succeeded']])).toBe('id      j1\nstatus  succeeded');
  });
});
