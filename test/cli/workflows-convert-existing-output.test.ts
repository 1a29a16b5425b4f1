// `wes workflows convert -o OUT` follows the rule of every command that saves files: an existing
// OUT with other bytes stops the command (exit 1, naming --clobber and --skip-existing), the same
// bytes are kept untouched, --clobber replaces, --skip-existing keeps; a link at OUT is never
// written through.
import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, stringifyJsonExact } from '../../src/util/exact-json.js';
import { runWes } from '../helpers/cli.js';
import { useTempDir } from './jobs-env.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'workflows');

describe('wes workflows convert -o onto an existing file', () => {
  const dir = useTempDir();

  /** The default graph's UI file and the definitions, offline. */
  function inputs(): { ui: string; info: string } {
    const value = parseJsonExact(readFileSync(join(FIXTURES, 'default-graph.case.json'), 'utf8')) as { ui: unknown };
    const ui = join(dir(), 'ui.json');
    writeFileSync(ui, stringifyJsonExact(value.ui));
    return { ui, info: join(FIXTURES, 'comfyui-0.3.18-object_info.subset.json') };
  }

  const convert = (ui: string, info: string, out: string, ...flags: string[]) => runWes(['workflows', 'convert', ui, '--object-info', info, '-o', out, ...flags]);

  it('stops with exit 1 and names --clobber and --skip-existing when OUT holds other bytes; OUT is untouched', async () => {
    const { ui, info } = inputs();
    const out = join(dir(), 'api.json');
    writeFileSync(out, 'my own notes\n');
    const res = await convert(ui, info, out);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(out);
    expect(res.stderr).toContain('--clobber');
    expect(res.stderr).toContain('--skip-existing');
    expect(readFileSync(out, 'utf8')).toBe('my own notes\n');
  });

  it('refuses a folder as OUT as every -o does (exit 2, before converting), with or without --clobber', async () => {
    const { ui, info } = inputs();
    const out = join(dir(), 'a-folder');
    mkdirSync(out);
    for (const flags of [[], ['--clobber'], ['--skip-existing']]) {
      const res = await convert(ui, info, out, ...flags);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`-o ${out} is a folder, not a file`);
      expect(res.stderr).not.toContain('--clobber');
    }
    expect(statSync(out).isDirectory()).toBe(true);
  });

  it('keeps an OUT that already holds the same bytes, without rewriting it', async () => {
    const { ui, info } = inputs();
    const out = join(dir(), 'same.json');
    expect((await convert(ui, info, out)).code).toBe(0);
    const before = statSync(out);
    const again = await convert(ui, info, out);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/same bytes/);
    const after = statSync(out);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('--clobber replaces other bytes; --skip-existing keeps them; both at once is exit 2', async () => {
    const { ui, info } = inputs();
    const expected = (await runWes(['workflows', 'convert', ui, '--object-info', info])).stdout;
    const kept = join(dir(), 'kept.json');
    writeFileSync(kept, 'keep me\n');
    const skip = await convert(ui, info, kept, '--skip-existing');
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stderr).toContain('--skip-existing');
    expect(readFileSync(kept, 'utf8')).toBe('keep me\n');

    const replaced = join(dir(), 'replaced.json');
    writeFileSync(replaced, 'old\n');
    const clobber = await convert(ui, info, replaced, '--clobber');
    expect(clobber.code, clobber.stderr).toBe(0);
    expect(readFileSync(replaced, 'utf8')).toBe(expected);

    const both = await convert(ui, info, replaced, '--clobber', '--skip-existing');
    expect(both.code).toBe(2);
    const withoutOutput = await runWes(['workflows', 'convert', ui, '--object-info', info, '--clobber']);
    expect(withoutOutput.code).toBe(2);
    expect(withoutOutput.stderr).toContain('--output');
  });

  it('refuses a link planted at OUT and never writes through it', async () => {
    const { ui, info } = inputs();
    const target = join(dir(), 'elsewhere.txt');
    writeFileSync(target, 'not yours\n');
    const out = join(dir(), 'link.json');
    symlinkSync(target, out);
    const res = await convert(ui, info, out);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('--clobber');
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(readlinkSync(out)).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe('not yours\n');
  });
});
