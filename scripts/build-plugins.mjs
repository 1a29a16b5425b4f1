// esbuild plugins of scripts/build.mjs, in their own module so tests can bundle with them.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

const require = createRequire(import.meta.url);

// What dependencies load at start-up but wes never uses, left out or loaded only when used: every
// command that makes a request starts sooner. test/cli/start-up-builtins.test.ts checks what
// `jobs get` loads, test/http/undici-trimmed.test.ts and undici-lazy-http.test.ts pin undici's
// sources relied on here, so an upgrade that changes them fails the suite (or this build).
// - undici's HTTP/2 client (client-h2.js) runs only for a connection that negotiated h2, which
//   undici offers only with `allowH2` or `useH2c`; wes sets neither. It is replaced by a function
//   that says so, which also keeps `node:http2` (with tls and its crypto) out.
// - undici's fetch body (web/fetch/body.js, and with it ~95 KB of fetch, FormData and WebIDL code
//   V8 parsed on every start, ~1.6 ms) is required only to send a FormData body; wes sends its
//   multipart uploads as streams (src/http/multipart.ts) and never a FormData.
// - undici's HTTP parser is WebAssembly written into JavaScript as base64 (two variants, 145 KB of
//   string V8 scanned on every start): the build writes the bytes beside the chunks
//   (`llhttpWasmFiles`) and the modules read them when the first connection needs them.
// - undici requires `node:assert` (4 modules, ~1.5 % of `jobs get`'s instructions) in most files,
//   and only calls it (`assert(condition)`, never a method): it gets an assert that loads
//   node:assert to throw when a condition fails, which an undici that works never does.
// - wes's own code (not the dev-server's) uses two functions of `node:crypto` (16 modules, ~2 MB
//   of memory) only to name a temp file, make an idempotency key or a multipart boundary: its
//   imports get those functions, which load node:crypto when first called. Cache file names and
//   content keys are hashed without it (src/util/sha256-hex.ts), so `jobs get` never loads it.
// - undici's ProxyAgent (proxies: src/http/proxy-dispatch.ts) requires its SOCKS5 agent (and its
//   client, ~26 KB) for socks:// proxy URLs, which wes refuses (src/http/proxy-env.ts): it is
//   replaced by a class that says so.
// - commander requires `node:child_process` for executable subcommands, which wes has none of:
//   it gets a `spawn` that loads child_process on first use.
// - undici requires `node:http` (9 more modules, ~2 ms of CPU) for two things. core/util checks
//   in `destroy` whether a stream is an `http.IncomingMessage`: such a stream exists only once
//   node:http is loaded, so the check loads it only for a stream whose class has that name.
//   dispatcher/client reads `http.maxHeaderSize` (Node's --max-http-header-size) as the default
//   of a Client's `maxHeaderSize`: it now reads it when a Client is made without one, and wes
//   always gives one (nodeMaxHeaderSize in src/http/undici-core.ts, the same value).
export const skipUnusedBuiltins = {
  name: 'skip-unused-builtins',
  setup(b) {
    const from = (file) => (args) => file.test(args.importer.replaceAll('\\', '/'));
    const undiciClient = from(/\/undici\/lib\/dispatcher\/client\.js$/);
    const undiciH1 = from(/\/undici\/lib\/dispatcher\/client-h1\.js$/);
    const commander = from(/\/commander\/lib\/command\.js$/);
    const undiciProxyAgent = from(/\/undici\/lib\/dispatcher\/proxy-agent\.js$/);
    const stub = (namespace, contents) => b.onLoad({ filter: /.*/, namespace }, () => ({ contents, loader: 'js' }));
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) => (undiciClient(args) ? { path: 'client-h2', namespace: 'wes-no-h2' } : undefined));
    stub('wes-no-h2', "module.exports = function connectH2 () { throw new Error('HTTP/2 is left out of the wes bundle (undici offers h2 only with allowH2 or useH2c)') };");
    b.onResolve({ filter: /^\.\/socks5-proxy-agent$/ }, (args) => (undiciProxyAgent(args) ? { path: 'socks5-proxy-agent', namespace: 'wes-no-socks' } : undefined));
    stub('wes-no-socks', "module.exports = class Socks5ProxyAgent { constructor () { throw new Error('SOCKS proxies are left out of the wes bundle (wes takes http:// and https:// proxies only)') } };");
    b.onResolve({ filter: /^\.\.\/web\/fetch\/body\.js$/ }, (args) => (undiciH1(args) ? { path: 'body', namespace: 'wes-no-formdata' } : undefined));
    stub('wes-no-formdata', "module.exports = { extractBody () { throw new Error('FormData request bodies are left out of the wes bundle') } };");
    b.onResolve({ filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/ }, (args) =>
      undiciH1(args) ? { path: args.path.endsWith('_simd-wasm.js') ? LLHTTP_WASM.simd : LLHTTP_WASM.plain, namespace: 'wes-wasm-file' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'wes-wasm-file' }, (args) => ({
      contents: `module.exports = require('node:fs').readFileSync(require.resolve('./${args.path}'));`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^node:assert$/ }, (args) => (/[\\/]undici[\\/]lib[\\/]/.test(args.importer) ? { path: 'assert', namespace: 'wes-lazy-assert' } : undefined));
    stub('wes-lazy-assert', "module.exports = function assert (...args) { if (!args[0]) require('node:assert')(...args) };");
    // wes's own files: under a src/ folder, and not a dependency's (a checkout may itself sit in a src/ folder).
    b.onResolve({ filter: /^node:crypto$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) && !/[\\/](node_modules|src[\\/]dev-server)[\\/]/.test(args.importer) ? { path: 'crypto', namespace: 'wes-lazy-crypto' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'wes-lazy-crypto' }, () => ({
      contents: LAZY_CRYPTO.map((name) => `export function ${name}(...args) { return require('node:crypto').${name}(...args); }`).join('\n'),
      loader: 'js',
    }));
    b.onResolve({ filter: /^node:child_process$/ }, (args) => (commander(args) ? { path: 'child_process', namespace: 'wes-lazy' } : undefined));
    stub('wes-lazy', "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };");
    const patched = (file, patch) =>
      b.onLoad({ filter: file }, async (args) => ({ contents: patch(await readFile(args.path, 'utf8')), loader: 'js', resolveDir: dirname(args.path) }));
    patched(/[\\/]undici[\\/]lib[\\/]core[\\/]util\.js$/, lazyIncomingMessage);
    patched(/[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/, lazyMaxHeaderSize);
  },
};

/** What wes's code imports from node:crypto (test/unit/lazy-crypto-bundle.test.ts checks it imports nothing else). */
export const LAZY_CRYPTO = ['randomBytes', 'randomUUID'];

/** The files undici's two llhttp builds are written to, beside the chunk that reads them. */
export const LLHTTP_WASM = { simd: 'undici-llhttp-simd.wasm', plain: 'undici-llhttp.wasm' };

/** [file name, bytes] of undici's llhttp WebAssembly, as its modules export them. */
export function llhttpWasmFiles() {
  return [
    [LLHTTP_WASM.simd, require('undici/lib/llhttp/llhttp_simd-wasm.js')],
    [LLHTTP_WASM.plain, require('undici/lib/llhttp/llhttp-wasm.js')],
  ];
}

/**
 * Applies exact text edits to one of undici's files. Throws when its text changed (a new undici):
 * an edit that does not match exactly once, or `leftOver` (another use of node:http) matching
 * what the edits do not replace.
 */
function edit(file, source, edits, leftOver) {
  let rest = source;
  for (const [from, to] of edits) {
    const count = source.split(from).length - 1;
    if (count !== 1) throw new Error(`undici/${file}: expected one \`${from.trim().split('\n')[0]}\`, found ${count}; update scripts/build-plugins.mjs`);
    source = source.replace(from, to);
    rest = rest.replace(from, '');
  }
  if (leftOver.test(rest)) throw new Error(`undici/${file} uses node:http beyond what scripts/build-plugins.mjs makes lazy; update it`);
  return source;
}

/** undici's core/util.js with its `node:http` import made lazy. */
export function lazyIncomingMessage(source) {
  const patched = edit(
    'lib/core/util.js',
    source,
    [
      ["const { IncomingMessage } = require('node:http')\n", ''],
      ['Object.getPrototypeOf(stream).constructor === IncomingMessage', 'isIncomingMessage(Object.getPrototypeOf(stream).constructor)'],
    ],
    /IncomingMessage|node:http\b/,
  );
  return `${patched}
// wes (scripts/build-plugins.mjs): node:http loads only for a stream that may be its IncomingMessage.
function isIncomingMessage (C) {
  return typeof C === 'function' && C.name === 'IncomingMessage' && C === require('node:http').IncomingMessage
}
`;
}

/** undici's dispatcher/client.js reading `http.maxHeaderSize` when a Client needs it, not as it loads. */
export function lazyMaxHeaderSize(source) {
  return edit(
    'lib/dispatcher/client.js',
    source,
    [
      ["const http = require('node:http')\n", ''],
      [
        `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }
`,
        `const getDefaultNodeMaxHeaderSize = () => {
  const http = require('node:http')
  if (http && http.maxHeaderSize && Number.isInteger(http.maxHeaderSize) && http.maxHeaderSize > 0) return http.maxHeaderSize
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}
`,
      ],
    ],
    /\bhttp\b(?! module)/,
  );
}

/**
 * A plugin for a second build that makes esbuild put the CLI's shared modules in few chunks.
 * esbuild groups modules into chunks by the set of entries (dynamic imports included) that reach
 * them, so a module that `program.ts` and two command modules import landed in its own small
 * chunk, and `jobs get` loaded 37 ES modules (each resolved, read and linked: ~0.8 M
 * instructions apiece). But every command module is loaded by program's action, after program and
 * factory: so each of the CLI's dynamic entries (from `firstBuild`'s metafile) now imports
 * program.ts and factory.ts first (factory.ts imports program.ts), which at run time are already
 * there, and all the modules of their closures share one set of entries: one chunk each. Nothing
 * the library entry (index.ts) or the dev-server entry can load, statically or dynamically, is
 * touched: they never load the CLI. `jobs get` loads 16 modules; `wes --help` 8 instead of 20.
 */
export function programFirst(root, firstBuild) {
  const outputs = firstBuild.outputs;
  const program = resolve(root, 'src/program.ts');
  const factory = resolve(root, 'src/factory.ts');
  const dynamicEntries = new Set(Object.values(outputs).flatMap((out) => (out.entryPoint ? [resolve(root, out.entryPoint)] : [])));
  const reach = (file, seen) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of outputs[file].imports) if (!imp.external) reach(imp.path, seen);
  };
  const notCli = new Set();
  for (const [file, out] of Object.entries(outputs)) if (out.entryPoint && /^src\/(index|dev-server\/index)\.ts$/.test(out.entryPoint)) reach(file, notCli);
  const untouched = new Set([program, resolve(root, 'src/cli.ts')]);
  for (const file of notCli) for (const input of Object.keys(outputs[file].inputs)) untouched.add(resolve(root, input));
  if (untouched.has(factory)) throw new Error('src/factory.ts is reachable from the library or the dev-server: update programFirst');
  return {
    name: 'program-first',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        if (!dynamicEntries.has(args.path) || untouched.has(args.path)) return undefined;
        const first = args.path === factory ? [program] : [program, factory];
        return { contents: `${first.map((f) => `import ${JSON.stringify(f)};`).join(' ')}\n${await readFile(args.path, 'utf8')}`, loader: 'ts' };
      });
    },
  };
}
