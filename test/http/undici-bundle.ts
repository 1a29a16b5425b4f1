// Bundles a few of undici's files as the build does (the patch of patches/undici@<version>.patch and
// the module substitutions of scripts/build-plugins.mjs), into a CommonJS file the test requires.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
// @ts-expect-error the build's scripts are plain JavaScript
import { llhttpWasmFiles, substitutions } from '../../scripts/build-plugins.mjs';
// @ts-expect-error as above
import { patchedUndici } from '../../scripts/build-undici.mjs';

export const ROOT = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const made: string[] = [];

export interface Bundled<T> {
  exports: T;
  /** The bundle's file, to require in a child process. */
  file: string;
  /** The inputs esbuild bundled, as paths relative to undici's package folder (`lib/...`). */
  undiciFiles: string[];
}

/**
 * `entry` (CommonJS requiring `undici/lib/...` files) bundled with the build's plugins. `off`: patch
 * purposes left out; `as`: the entry's path in its temp folder (`undici/lib/x.js` to be one of undici's files).
 */
export async function bundleUndici<T>(entry: string, { off = [], as = 'entry.cjs' }: { off?: string[]; as?: string } = {}): Promise<Bundled<T>> {
  const dir = mkdtempSync(join(tmpdir(), 'wes-undici-'));
  made.push(dir);
  const source = join(dir, as);
  mkdirSync(dirname(source), { recursive: true });
  writeFileSync(source, entry);
  const file = join(dir, 'bundle.cjs');
  const result = await build({
    entryPoints: [source],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    nodePaths: [join(ROOT, 'node_modules')],
    plugins: [(patchedUndici(ROOT, { off }) as { plugin: never }).plugin, substitutions()],
    metafile: true,
    logLevel: 'error',
  });
  // undici's parser, where the wasm-file substitution reads it: beside the bundle, as the build writes it.
  for (const [name, bytes] of llhttpWasmFiles() as Array<[string, Buffer]>) writeFileSync(join(dir, name), bytes);
  const inputs = Object.keys((result.metafile as Metafile).inputs);
  const undiciFiles = inputs.flatMap((input) => /node_modules\/undici\/(lib\/.*)$/.exec(input)?.[1] ?? []);
  return { exports: require(file) as T, file, undiciFiles };
}

export function removeBundles(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
