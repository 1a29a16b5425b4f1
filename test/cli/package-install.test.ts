// What `npm pack` ships: the built bundle (dependencies included, so it runs with no
// node_modules) and the completion scripts. The tarball is unpacked where `npm install -g
// --prefix` puts a package and run from there, offline. (npm itself would also fetch the declared
// dependencies from the registry, which the bundle never loads; tests have no registry.)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the npm package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wes-pack-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ships dist and completions/, and the unpacked package runs on its own', () => {
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = info!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/wes.js', 'dist/cli.js', 'completions/wes.bash', 'completions/wes.zsh', 'completions/wes.fish']));
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('node_modules/'))).toBe(false);

    const pkgDir = join(dir, 'prefix', 'lib', 'node_modules', 'wes');
    mkdirSync(pkgDir, { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, info!.filename), '-C', pkgDir, '--strip-components=1']);
    expect(readdirSync(pkgDir)).not.toContain('node_modules');
    const run = (...args: string[]) => execFileSync(process.execPath, [join(pkgDir, 'bin', 'wes.js'), ...args], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, WES_CONFIG_DIR: join(dir, 'cfg') } });
    expect(JSON.parse(run('version', '--json')).version).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    expect(run('completion', 'bash')).toBe(readFileSync(join(pkgDir, 'completions', 'wes.bash'), 'utf8'));
    expect(run('version', '--jq', '.node')).toBe(`${process.versions.node}\n`);
  });
});
