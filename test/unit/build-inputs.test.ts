// `prepare` (npm ci, npm pack) and `npm test` build only when dist/ was not made from the inputs as
// they are: the fingerprint follows bytes, not modification times, and leaves out package.json's
// scripts (prepack takes them out mid-pack).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error the build scripts are plain JavaScript
import { buildInputs, distIsCurrent, INPUTS_STAMP } from '../../scripts/build-inputs.mjs';

const fingerprint = buildInputs as (root: string) => string;
const current = distIsCurrent as (root: string) => boolean;
let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

function project(): string {
  root = mkdtempSync(join(tmpdir(), 'wes-inputs-'));
  mkdirSync(join(root, 'src', 'http'), { recursive: true });
  writeFileSync(join(root, 'src', 'http', 'client.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'wes', version: '1.0.0', scripts: { prepare: 'x' } }));
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
  return root;
}

describe('the build inputs', () => {
  it('change with a source byte, a dependency pin or the version, not with a time stamp or the scripts', () => {
    const dir = project();
    const first = fingerprint(dir);
    utimesSync(join(dir, 'src', 'http', 'client.ts'), new Date(), new Date(Date.now() + 60_000));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'wes', version: '1.0.0' }));
    expect(fingerprint(dir)).toBe(first);
    writeFileSync(join(dir, 'src', 'http', 'client.ts'), 'export const a = 2;\n');
    const edited = fingerprint(dir);
    expect(edited).not.toBe(first);
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"x":1}');
    expect(fingerprint(dir)).not.toBe(edited);
    const pinned = fingerprint(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'wes', version: '1.0.1' }));
    expect(fingerprint(dir)).not.toBe(pinned);
    // A file moved to another folder is another input.
    const before = fingerprint(dir);
    rmSync(join(dir, 'src', 'http', 'client.ts'));
    writeFileSync(join(dir, 'src', 'client.ts'), 'export const a = 2;\n');
    expect(fingerprint(dir)).not.toBe(before);
  });

  it('are current only when dist/ records them, which a finished build does', () => {
    const dir = project();
    expect(current(dir)).toBe(false);
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', INPUTS_STAMP as string), `${fingerprint(dir)}\n`);
    expect(current(dir)).toBe(true);
    writeFileSync(join(dir, 'src', 'http', 'client.ts'), 'export const a = 3;\n');
    expect(current(dir)).toBe(false);
  });

  it('are what this checkout is built from (npm test builds first; run `npm run build` after an edit)', () => {
    expect(current(resolve(import.meta.dirname, '../..'))).toBe(true);
  });
});
