// esbuild plugins of scripts/build.mjs, in their own module so tests can bundle with them.
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// Node modules that dependencies load at start-up but a command never uses. Left out, every
// command that makes a request starts sooner (test/cli/start-up-builtins.test.ts checks `jobs get`
// loads none of them and pins the dependency sources relied on here):
// - undici's HTTP/2 client requires `node:http2` (with tls and its crypto) as it loads; it already
//   falls back when http2 is missing, and uses it only with `allowH2`, which wes never sets.
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
    const undiciH2 = from(/\/undici\/lib\/dispatcher\/client-h2\.js$/);
    const commander = from(/\/commander\/lib\/command\.js$/);
    b.onResolve({ filter: /^node:http2$/ }, (args) => (undiciH2(args) ? { path: 'http2', namespace: 'wes-absent' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'wes-absent' }, () => ({
      contents: "throw Object.assign(new Error('node:http2 is left out of the wes bundle'), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });",
      loader: 'js',
    }));
    b.onResolve({ filter: /^node:child_process$/ }, (args) => (commander(args) ? { path: 'child_process', namespace: 'wes-lazy' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'wes-lazy' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
    const patched = (file, patch) =>
      b.onLoad({ filter: file }, async (args) => ({ contents: patch(await readFile(args.path, 'utf8')), loader: 'js', resolveDir: dirname(args.path) }));
    patched(/[\\/]undici[\\/]lib[\\/]core[\\/]util\.js$/, lazyIncomingMessage);
    patched(/[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/, lazyMaxHeaderSize);
  },
};

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
