// What `npm pack` ships, installed as a user installs it: `npm install -g --prefix` of the
// tarball, with no network (--offline) and an empty npm cache. That works because the bundle in
// dist/ carries every dependency: package.json declares them as devDependencies (for building),
// so npm fetches nothing; the one optional dependency (native blake3) is skipped when it cannot be
// fetched, and hash-wasm inside the bundle takes its place.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error the build's plugins are plain JavaScript
import { LLHTTP_WASM } from '../../scripts/build-plugins.mjs';

const REPO = resolve(import.meta.dirname, '../..');

/** Where `npm run build:sea` puts the single executable (110 MB), which the npm package must not carry. */
const SEA_DIR = join('dist', 'sea');

/**
 * A copy of what `npm pack` reads and runs (the build's inputs byte for byte, so prepack's
 * `build.mjs --if-changed` finds dist/ current): packing there leaves the repository's
 * package.json alone, which prepack sets aside while it packs and which the other test files
 * running meanwhile read. dist/sea is there as a checkout that ran `npm run build:sea` has it
 * (sea-executable.test.ts builds it), whether or not it is built yet: a small file in place of
 * the executable, which neither pack nor install then has to read.
 */
function packableCopy(into: string): string {
  for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'bin', 'dist', 'completions', 'scripts', 'src', 'patches']) {
    cpSync(join(REPO, entry), join(into, entry), { recursive: true, filter: (from) => from !== join(REPO, SEA_DIR) });
  }
  mkdirSync(join(into, SEA_DIR));
  writeFileSync(join(into, SEA_DIR, 'wes-linux-x64'), '#!/bin/sh\necho the single executable\n', { mode: 0o755 });
  symlinkSync(join(REPO, 'node_modules'), join(into, 'node_modules'));
  return into;
}

describe('the npm package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wes-pack-'));
  const ROOT = packableCopy(mkdtempSync(join(tmpdir(), 'wes-packable-')));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(ROOT, { recursive: true, force: true });
  });

  // npm pack and npm install -g start npm twice: seconds each on a loaded 2-core runner (17 s alone,
  // 89 s in a clean-clone CI run beside the single-executable build).
  it('ships dist (but not the single executable) and completions/ and no scripts; npm install -g of the tarball works offline, quietly, and runs', () => {
    const before = readFileSync(join(ROOT, 'package.json'), 'utf8');
    // With its scripts: prepack takes them out of the packed manifest, postpack puts the file back (scripts/pack-manifest.mjs).
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(readFileSync(join(ROOT, 'package.json'), 'utf8')).toBe(before);
    expect(existsSync(join(ROOT, 'package.json.clone'))).toBe(false);
    const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = info!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/wes.js', 'dist/cli.js', 'completions/wes.bash', 'completions/wes.zsh', 'completions/wes.fish']));
    // undici's HTTP parser, which the bundle reads from dist/chunks when it makes its first request.
    const wasm = Object.values(LLHTTP_WASM as Record<string, string>).map((name) => `dist/chunks/${name}`);
    expect(files).toEqual(expect.arrayContaining(wasm));
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('node_modules/'))).toBe(false);
    // The single executable is a download of its own (README, Install): in the package it made a 40 MB tarball.
    expect(files.filter((f) => f.startsWith(`${SEA_DIR}/`))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };
    expect(manifest.dependencies ?? {}, 'the bundle carries its dependencies; a declared one would be fetched by npm install').toEqual({});

    const prefix = join(dir, 'prefix');
    const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--cache', join(dir, 'npm-cache'), '--offline', '--no-audit', '--no-fund', join(dir, info!.filename)], { cwd: dir, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    // npm 11 reports a package's install scripts (prepare among them) on every global install.
    expect(install.stderr).not.toMatch(/install-scripts|prepare/);
    const installed = join(prefix, 'lib', 'node_modules', 'wes');
    const packed = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts?: unknown; bin?: unknown };
    expect(packed.scripts).toBeUndefined();
    expect(packed.bin).toEqual({ wes: 'bin/wes.js' });
    expect(readdirSync(installed)).toEqual(expect.arrayContaining(['bin', 'dist', 'completions', 'package.json']));
    for (const file of wasm) expect(existsSync(join(installed, file)), file).toBe(true);
    const wes = join(prefix, 'bin', 'wes');
    expect(existsSync(wes)).toBe(true);
    const run = (...args: string[]) => execFileSync(wes, args, { cwd: dir, encoding: 'utf8', env: { PATH: `${prefix}/bin:${process.env.PATH}`, HOME: dir, WES_CONFIG_DIR: join(dir, 'cfg') } });
    expect(run('--version')).toBe(`wes ${manifest.version}\n`);
    expect(JSON.parse(run('version', '--json')).version).toBe(manifest.version);
    expect(run('completion', 'bash')).toBe(readFileSync(join(installed, 'completions', 'wes.bash'), 'utf8'));
    expect(run('version', '--jq', '.node')).toBe(`${process.versions.node}\n`);
  }, 240_000);
});
