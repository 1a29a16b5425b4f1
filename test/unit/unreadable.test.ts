// Messages about files named on the command line give the reason in words, not an errno code.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { whyUnreadable } from '../../src/files/unreadable.js';

function failureOf(read: () => unknown): unknown {
  try {
    read();
  } catch (err) {
    return err;
  }
  throw new Error('the read did not fail');
}

describe('whyUnreadable', () => {
  it('names a missing file and a folder the way a person would, from real failures', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wes-unreadable-'));
    try {
      expect(whyUnreadable(failureOf(() => readFileSync(join(dir, 'missing.json'))))).toBe('no such file');
      expect(whyUnreadable(failureOf(() => readFileSync(dir)))).toBe('it is a folder');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says "permission denied" for EACCES and EPERM, and keeps the system message otherwise', () => {
    expect(whyUnreadable(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('permission denied');
    expect(whyUnreadable(Object.assign(new Error('x'), { code: 'EPERM' }))).toBe('permission denied');
    expect(whyUnreadable(Object.assign(new Error('ELOOP: too many symbolic links'), { code: 'ELOOP' }))).toBe('ELOOP: too many symbolic links');
  });
});
