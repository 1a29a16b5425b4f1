// `npm run demo` (issue 38, item 8): the lines it shows run as shown when pasted into a shell,
// and it does not build again what `npm ci` (prepare) has just built.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain-JS script module, without types
import { commandLine } from '../../scripts/demo-line.mjs';

const root = resolve(import.meta.dirname, '../..');

describe('npm run demo', () => {
  it('shows -d JSON in shell quotes, and the shell reads back the words the demo ran', () => {
    const args = ['models', 'run', 'dev/echo', '-d', `{"prompt":"a lighthouse at dusk","seed":7}`, '--label', "it's"];
    const line: string = commandLine(args);
    expect(line).toBe(`$ wes models run dev/echo -d '{"prompt":"a lighthouse at dusk","seed":7}' --label 'it'\\''s'`);
    const echoed = spawnSync('bash', ['-c', `printf '%s\\n' ${line.slice('$ wes '.length)}`], { encoding: 'utf8' });
    expect(echoed.stdout.trimEnd().split('\n')).toEqual(args);
  });

  it('builds only when dist/ is not built from the sources (as prepare and npm test do)', () => {
    const scripts = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.prepare).toContain('build.mjs --if-changed');
    expect(scripts.demo).toMatch(/^node scripts\/build\.mjs --if-changed && node scripts\/demo\.mjs$/);
  });
});
