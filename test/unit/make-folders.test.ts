// mkdir -p a level at a time (src/util/make-folders.ts): Node 20's recursive mkdir never returns
// where mkdir answers ENOENT for a level it cannot make (under /proc), and took every command with it.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFoldersSync } from '../../src/util/make-folders.js';

const root = mkdtempSync(join(tmpdir(), 'wes-make-folders-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('makeFoldersSync', () => {
  it('makes the missing levels with the mode given, and answers the first one it made', () => {
    const deep = join(root, 'a', 'b', 'c');
    expect(makeFoldersSync(deep, 0o700)).toBe(join(root, 'a'));
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(root, 'a', 'b')).mode & 0o777).toBe(0o700);
    expect(makeFoldersSync(deep, 0o700)).toBeUndefined();
  });

  it('fails with the error of the level it cannot make: a file in the way, or a file at the path itself', () => {
    writeFileSync(join(root, 'file'), 'x');
    expect(() => makeFoldersSync(join(root, 'file', 'below'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => makeFoldersSync(join(root, 'file'), 0o700)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(statSync(join(root, 'file')).mode & 0o777).not.toBe(0o700);
  });

  it.skipIf(!existsSync('/proc/self'))('fails at once where mkdir answers ENOENT for a level (under /proc), where Node 20 spins for ever', () => {
    expect(() => makeFoldersSync('/proc/wes-no-such-folder/below', 0o700)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
