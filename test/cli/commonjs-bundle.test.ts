// The built CLI is CommonJS (scripts/build-commonjs.mjs): a command runs without Node's ES module
// loader, which cost every start ~6 ms. This checks the conversion's rules on small sources, that
// what the build ships says CommonJS, and that a real `jobs get` and `--help` never run an ES module.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript
import { commonJsOf } from '../../scripts/build-commonjs.mjs';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

const REPO = resolve(import.meta.dirname, '../..');
const PRELOAD = join(import.meta.dirname, '../fixtures/start-up/list-loaded-builtins.cjs');
const convert = commonJsOf as (source: string, name?: string) => Promise<string>;

/** Writes `code` as a .cjs file in a new temp folder and requires it. */
function load(code: string): { file: string; exports: Record<string, unknown> } {
  const file = join(mkdtempSync(join(tmpdir(), 'wes-cjs-')), 'chunk.cjs');
  writeFileSync(file, code);
  return { file, exports: createRequire(import.meta.url)(file) as Record<string, unknown> };
}

describe('converting a chunk to CommonJS', () => {
  it('keeps exports, strict mode and import.meta.url (the file itself)', async () => {
    const code = await convert('export const url = import.meta.url; export function strict() { return this; } export default 7;');
    const { file, exports } = load(code);
    expect(exports.url).toBe(pathToFileURL(file).href);
    expect((exports.strict as () => unknown).call(undefined)).toBeUndefined();
    expect(exports.default).toBe(7);
  });

  it('turns a dynamic import into a require of the same file', async () => {
    const code = await convert('export const later = () => import("node:path").then((m) => m.sep);');
    expect(code).not.toMatch(/\bimport\(/);
    expect(await (load(code).exports.later as () => Promise<string>)()).toBe('/');
  });

  it("keeps esbuild's line naming each bundled module, which tests read to tell what a run loaded", async () => {
    const code = await convert('// src/a.ts\nexport const a = 1;\n\n// node_modules/ora/index.js\nexport const b = 2;\n// src/not a path\n');
    expect(code).toMatch(/^\/\/ src\/a\.ts$/m);
    expect(code).toMatch(/^\/\/ node_modules\/ora\/index\.js$/m);
    expect(code).not.toContain('not a path');
  });

  it('refuses what CommonJS cannot mean: top-level await, import.meta beyond url', async () => {
    await expect(convert('export const x = await Promise.resolve(1);', 'tla.js')).rejects.toThrow(/tla\.js/);
    await expect(convert('export const d = import.meta.dirname;', 'meta.js')).rejects.toThrow(/meta\.js: cannot be CommonJS/);
  });
});

describe('the built package', () => {
  it('declares dist/ and bin/ CommonJS, no built file is an ES module, and each names the modules it bundles', () => {
    for (const dir of ['dist', 'bin']) expect(JSON.parse(readFileSync(join(REPO, dir, 'package.json'), 'utf8')).type).toBe('commonjs');
    const files = [...readdirSync(join(REPO, 'dist')).map((f) => join('dist', f)), ...readdirSync(join(REPO, 'dist/chunks')).map((f) => join('dist/chunks', f)), 'bin/wes.js'];
    const scripts = files.filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(20);
    const texts = scripts.map((file) => readFileSync(join(REPO, file), 'utf8'));
    texts.forEach((text, i) => expect(text, scripts[i]).not.toMatch(/^(import|export)\s[^\n]*(from\s+["']|\{)/m));
    for (const marker of ['// src/program.ts', '// node_modules/ora/index.js', '// node_modules/commander/lib/command.js']) expect(texts.some((text) => text.includes(`\n${marker}\n`)), marker).toBe(true);
  });

  const ctx = useDevServer({});
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('`jobs get` and `--help` run without the ES module loader running a module', async () => {
    const id = (await submitJob(ctx.server, bytesWorkflow(64))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    for (const args of [['jobs', 'get', id, '--json'], ['--help']]) {
      const list = join(dir(), 'builtins.txt');
      const res = await wes(args, { spawn: true, env: { NODE_OPTIONS: `--require ${PRELOAD}`, WES_TEST_BUILTINS_FILE: list } });
      expect(res.code, res.stderr).toBe(0);
      const loaded = readFileSync(list, 'utf8').split('\n');
      expect(loaded).toContain('NativeModule internal/modules/cjs/loader'); // the list is real
      for (const esm of ['module_job', 'translators', 'module_map']) expect(loaded, args.join(' ')).not.toContain(`NativeModule internal/modules/esm/${esm}`);
    }
  });
});
