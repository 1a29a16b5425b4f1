// The bundle is written as CommonJS. esbuild splits code into chunks only as ES modules, so each
// chunk it emits is converted here, one file at a time, before it is written. Why: Node 20 starts
// an ES module through its ESM loader (about 25 more built-in modules, and a resolve and link per
// module), which cost `wes jobs get` ~6 ms of wall time and ~10 ms of CPU on every start
// (bench/RESULTS.md, "fourth session"); `require` of a chunk goes through the CommonJS loader,
// which node's own start-up has already loaded. Dynamic imports become `require` calls, so the
// ESM loader is never started. The chunks keep today's semantics: "use strict" (ES modules are
// strict), and `import.meta.url` becomes the file's own URL.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { transform } from 'esbuild';

const MODULE_URL = '__wesModuleUrl';

/** What the build defines `__WES_BUILD_ID__` as; toCommonJs replaces it with the build's id. */
export const BUILD_ID_PLACEHOLDER = 'wes-build-id-placeholder-0000000000000000';

/**
 * Writes esbuild's in-memory `outputFiles` (ES modules) as CommonJS, plus the package.json that
 * says so. The build id (src/runtime/code-cache.ts names its folder by it) is a hash of every
 * chunk but the one file that holds it, the entry that loads before the cache is in use.
 */
export async function toCommonJs(outputFiles, outdir) {
  const files = [];
  for (const file of outputFiles) files.push({ path: file.path, bytes: file.path.endsWith('.js') ? await commonJsOf(file.text, file.path) : file.contents });
  const scripts = files.filter((f) => typeof f.bytes === 'string');
  const holders = scripts.filter((f) => f.bytes.includes(BUILD_ID_PLACEHOLDER));
  if (holders.length !== 1) throw new Error(`expected the build id placeholder in one file, found ${holders.length}`);
  const id = buildId(scripts.filter((f) => f !== holders[0]).map((f) => ({ name: relative(outdir, f.path), text: f.bytes })));
  holders[0].bytes = holders[0].bytes.replaceAll(BUILD_ID_PLACEHOLDER, id);
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.bytes);
  }
  writeFileSync(`${outdir}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
}

/** A short hash of the files' names and texts, in name order. */
export function buildId(files) {
  const hash = createHash('sha256');
  for (const { name, text } of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) hash.update(`${name}\0${text}\0`);
  return hash.digest('hex').slice(0, 20);
}

/** One ES module chunk as a CommonJS module; throws on anything that would not mean the same. */
export async function commonJsOf(source, name = 'chunk') {
  const usesMetaUrl = source.includes('import.meta');
  // esbuild's `// src/x.ts` line before each bundled module says where code came from (tests read
  // it to tell which packages a run loaded); a transform keeps only legal comments, so they pass as one.
  const marked = source.replace(/^\/\/ ((?:src|node_modules)\/\S+)$/gm, '//! $1');
  const result = await transform(marked, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': MODULE_URL },
    banner: `"use strict";${usesMetaUrl ? ` var ${MODULE_URL} = require("node:url").pathToFileURL(__filename).href;` : ''}`,
    legalComments: 'inline',
    logLevel: 'silent',
  }).catch((err) => {
    throw new Error(`${name}: cannot be CommonJS: ${err.errors?.map((e) => e.text).join('; ') ?? err.message}`);
  });
  // An `import.meta` other than `.url` would become `{}`, and top-level await cannot be CommonJS.
  if (result.warnings.length > 0) throw new Error(`${name}: cannot be CommonJS: ${result.warnings.map((w) => w.text).join('; ')}`);
  return exportsInPlace(result.code.replace(/^(\s*)\/\/! ((?:src|node_modules)\/\S+)$/gm, '$1// $2'));
}

/**
 * esbuild's CommonJS form of a module copies its exports object, a getter per export, into a
 * second one of getters (`__toCommonJS`) that each read the first: every chunk loaded made two
 * closures and two property definitions per export (~500 in all on a `jobs get`'s path), and
 * every use of an import from another chunk called two getters. The object with the getters is
 * the module's exports as it is, marked as an ES module (`__esModule`) as the copy was. Left as
 * esbuild wrote it when the line is not there exactly once.
 */
function exportsInPlace(code) {
  const line = 'module.exports = __toCommonJS(stdin_exports);';
  const at = code.indexOf(line);
  if (at < 0 || code.indexOf(line, at + 1) >= 0) return code;
  return `${code.slice(0, at)}Object.defineProperty(stdin_exports, "__esModule", { value: true });\nmodule.exports = stdin_exports;${code.slice(at + line.length)}`;
}
