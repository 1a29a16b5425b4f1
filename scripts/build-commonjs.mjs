// The bundle is written as CommonJS. esbuild splits code into chunks only as ES modules, so each
// chunk it emits is converted here, one file at a time, before it is written. Why: Node 20 starts
// an ES module through its ESM loader (about 25 more built-in modules, and a resolve and link per
// module), which cost `wes jobs get` ~6 ms of wall time and ~10 ms of CPU on every start
// (bench/RESULTS.md, "fourth session"); `require` of a chunk goes through the CommonJS loader,
// which node's own start-up has already loaded. Dynamic imports become `require` calls, so the
// ESM loader is never started. The chunks keep today's semantics: "use strict" (ES modules are
// strict), and `import.meta.url` becomes the file's own URL.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { transform } from 'esbuild';

const MODULE_URL = '__wesModuleUrl';

/** Writes esbuild's in-memory `outputFiles` (ES modules) as CommonJS, plus the package.json that says so. */
export async function toCommonJs(outputFiles, outdir) {
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.js') ? await commonJsOf(file.text, file.path) : file.contents);
  }
  writeFileSync(`${outdir}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
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
  return result.code.replace(/^(\s*)\/\/! ((?:src|node_modules)\/\S+)$/gm, '$1// $2');
}
