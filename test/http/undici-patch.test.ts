// undici is pinned to one version and patched by one reviewed file, patches/undici@<version>.patch,
// which the build applies exactly (scripts/build-undici.mjs). This checks the pin (package.json,
// the lockfile, what is installed, the patch's name agree), that the patch applies to the pinned
// undici, is a unified diff `git apply` takes, explains every hunk's purpose, and that the build
// stops, saying why, when undici or the patch drift. What each hunk does is checked by
// undici-trimmed.test.ts and undici-lazy-http.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error the build's scripts are plain JavaScript
import { applyHunks, parsePatch, pinnedUndici } from '../../scripts/build-undici.mjs';
import { ROOT } from './undici-bundle.js';

interface Hunk {
  tag: string;
  oldStart: number;
  old: string[];
  new: string[];
}
interface Patch {
  purposes: Set<string>;
  files: Map<string, { path: string; hunks: Hunk[] }>;
}
const pinned = pinnedUndici as (root: string) => { version: string; dir: string; patch: string };
const parse = parsePatch as (text: string, name?: string) => Patch;
const apply = applyHunks as (source: string, hunks: Hunk[], name: string, off?: string[]) => string;

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-undici-patch-'));
  scratch.push(dir);
  return dir;
}

/** A checkout's outline in a temp folder: package.json with `undici` as given, an installed undici of `installed`, the patches. */
function fakeCheckout(pin: string, installed: string, patches: Record<string, string>): string {
  const root = tempDir();
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', devDependencies: { undici: pin } }));
  mkdirSync(join(root, 'node_modules/undici'), { recursive: true });
  writeFileSync(join(root, 'node_modules/undici/package.json'), JSON.stringify({ name: 'undici', version: installed }));
  mkdirSync(join(root, 'patches'));
  for (const [name, text] of Object.entries(patches)) writeFileSync(join(root, 'patches', name), text);
  return root;
}

describe('the undici pin and its patch', () => {
  const undici = pinned(ROOT);
  const text = readFileSync(undici.patch, 'utf8');
  const patch = parse(text, 'patch');

  it('one exact version in package.json, the lockfile and node_modules, and the patch named after it', () => {
    expect(json(join(ROOT, 'package.json')).devDependencies.undici).toBe(undici.version);
    const lock = json(join(ROOT, 'package-lock.json'));
    expect(lock.packages[''].devDependencies.undici).toBe(undici.version);
    expect(lock.packages['node_modules/undici'].version).toBe(undici.version);
    expect(json(join(undici.dir, 'package.json')).version).toBe(undici.version);
    expect(undici.patch).toBe(join(ROOT, 'patches', `undici@${undici.version}.patch`));
    // A version that runs on the Node.js wes supports.
    expect(json(join(undici.dir, 'package.json')).engines.node).toMatch(/^>=20\./);
  });

  it('applies to the pinned undici, and every purpose its header explains has a hunk', () => {
    const used = new Set<string>();
    for (const [path, file] of patch.files) {
      const source = readFileSync(join(undici.dir, path), 'utf8');
      const patched = apply(source, file.hunks, path);
      expect(patched, path).not.toBe(source);
      // Turning every purpose off gives undici's file back.
      expect(apply(source, file.hunks, path, [...patch.purposes])).toBe(source);
      for (const hunk of file.hunks) used.add(hunk.tag);
    }
    expect([...used].sort()).toEqual([...patch.purposes].sort());
    expect([...patch.purposes].sort()).toEqual(['lazy-http', 'no-formdata', 'no-h2', 'no-socks']);
  });

  it('is a unified diff that git apply takes, giving the same files', () => {
    const copy = tempDir();
    for (const path of patch.files.keys()) {
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      cpSync(join(undici.dir, path), join(copy, path));
    }
    execFileSync('git', ['apply', '--whitespace=nowarn', undici.patch], { cwd: copy, stdio: 'pipe' });
    for (const [path, file] of patch.files) expect(readFileSync(join(copy, path), 'utf8'), path).toBe(apply(readFileSync(join(undici.dir, path), 'utf8'), file.hunks, path));
  });

  it('does not apply to a file that changed, and says which hunk and line', () => {
    const [path, file] = [...patch.files].find(([, f]) => f.hunks.some((h) => h.tag === 'no-h2'))!;
    const hunk = file.hunks.find((h) => h.tag === 'no-h2')!;
    const lines = readFileSync(join(undici.dir, path), 'utf8').split('\n');
    const moved = [...lines.slice(0, hunk.oldStart - 1), '// a line a new undici added', ...lines.slice(hunk.oldStart - 1)].join('\n');
    expect(() => apply(moved, file.hunks, path)).toThrow(new RegExp(`${path}: the no-h2 hunk @@ -${hunk.oldStart},\\d+ does not apply: line ${hunk.oldStart} is "// a line a new undici added"`));
  });

  it('refuses a hunk whose purpose the header does not explain, and line counts that disagree', () => {
    const unexplained = text.replace('@@ no-h2', '@@ faster');
    expect(() => parse(unexplained, 'p')).toThrow(/the hunk's purpose "faster" is not one the patch's header explains/);
    const short = text.replace(/@@ -(\d+),(\d+) \+(\d+),(\d+) @@ no-h2/, (_m, a, b, c, d) => `@@ -${a},${b} +${c},${Number(d) + 1} @@ no-h2`);
    expect(() => parse(short, 'p')).toThrow(/other line counts than its heading/);
  });

  it('refuses a range, another installed version, a missing patch and a stale one', () => {
    expect(() => pinned(fakeCheckout('^7.30.2', '7.30.2', {}))).toThrow(/undici must be pinned to one exact version \(it is "\^7\.30\.2"\)/);
    expect(() => pinned(fakeCheckout('7.30.2', '7.31.0', { 'undici@7.30.2.patch': '' }))).toThrow(/undici 7\.31\.0 is installed but package\.json pins 7\.30\.2: run npm ci/);
    expect(() => pinned(fakeCheckout('7.31.0', '7.31.0', { 'undici@7.30.2.patch': '' }))).toThrow(/patches\/undici@7\.31\.0\.patch is missing \(found undici@7\.30\.2\.patch\)/);
    expect(() => pinned(fakeCheckout('7.31.0', '7.31.0', { 'undici@7.30.2.patch': '', 'undici@7.31.0.patch': '' }))).toThrow(/holds undici@7\.30\.2\.patch beside undici@7\.31\.0\.patch/);
  });
});

describe('the build, when undici or its patch drift', () => {
  /** A copy of the build's scripts and patches beside this checkout's node_modules, edited by `change`. */
  function checkout(change: (root: string) => void): string {
    const root = tempDir();
    for (const part of ['scripts', 'patches', 'src', 'bin']) cpSync(join(ROOT, part), join(root, part), { recursive: true });
    for (const file of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, file), join(root, file));
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    change(root);
    return root;
  }
  const build = (root: string) => spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });

  it('stops before bundling when undici is on a range', () => {
    const root = checkout((r) => {
      const pkg = json(join(r, 'package.json'));
      pkg.devDependencies.undici = `^${pkg.devDependencies.undici}`;
      writeFileSync(join(r, 'package.json'), JSON.stringify(pkg));
    });
    const run = build(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^build: check undici: package\.json: undici must be pinned to one exact version/m);
    expect(readdirSync(root)).not.toContain('dist');
  }, 90_000);

  it('stops when a hunk does not apply, and leaves no dist/ behind', () => {
    const root = checkout((r) => {
      const file = join(r, 'patches', `undici@${pinned(ROOT).version}.patch`);
      writeFileSync(file, readFileSync(file, 'utf8').replace(" const connectH1 = require('./client-h1.js')\n", " const connectH1 = require('./client-h1.cjs')\n"));
    });
    const run = build(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('lib/dispatcher/client.js: the no-h2 hunk @@ -58,6 does not apply: line 60 is "const connectH1 = require(\'./client-h1.js\')", the patch expects "const connectH1 = require(\'./client-h1.cjs\')"');
    expect(run.stderr).toMatch(/^build: bundle: /m);
    expect(readdirSync(root).filter((name) => name.startsWith('dist'))).toEqual([]);
  }, 90_000);
});
