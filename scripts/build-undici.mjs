// undici as the bundle carries it: the exact version package.json pins, with the one reviewed patch
// patches/undici@<version>.patch applied to the text esbuild bundles (node_modules is never
// written). Everything here fails loudly: a version other than the pin, a pin that is a range, a
// patch named after another version, a hunk whose text is not exactly where it says, a hunk whose
// purpose the patch's header does not explain, a patched file the bundle no longer includes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/**
 * The pinned undici of the checkout at `root`: its version, folder and patch file. Throws when
 * package.json gives a range, when the installed undici is another version, or when the patch
 * for that version is missing or a patch for another one is left beside it.
 */
export function pinnedUndici(root) {
  const pin = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies?.undici;
  if (!/^\d+\.\d+\.\d+$/.test(pin ?? '')) throw new Error(`package.json: undici must be pinned to one exact version (it is ${JSON.stringify(pin)}): the build patches its source`);
  const dir = dirname(createRequire(join(root, 'package.json')).resolve('undici/package.json'));
  const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  if (installed !== pin) throw new Error(`undici ${installed} is installed but package.json pins ${pin}: run npm ci`);
  const patches = join(root, 'patches');
  const patch = join(patches, `undici@${pin}.patch`);
  const others = (existsSync(patches) ? readdirSync(patches) : []).filter((name) => name.startsWith('undici@') && name !== `undici@${pin}.patch`);
  if (!existsSync(patch)) throw new Error(`patches/undici@${pin}.patch is missing${others.length ? ` (found ${others.join(', ')})` : ''}: carry the patch to undici ${pin} (README, Development)`);
  if (others.length) throw new Error(`patches/ holds ${others.join(', ')} beside undici@${pin}.patch: remove what no longer applies`);
  return { version: pin, dir, patch };
}

/**
 * A unified diff: the purposes its header explains (lines `  tag  why`), and per file (relative to
 * the package folder) its hunks, each with the tag its heading names.
 */
export function parsePatch(text, name = 'patch') {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const purposes = new Set();
  const files = new Map();
  let file;
  let hunk;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const where = `${name}:${i + 1}`;
    if (hunk && hunk.remaining > 0) {
      const kind = line[0] ?? ' '; // an empty line: an empty context line whose space an editor took off
      if (kind === '\\') continue; // "\ No newline at end of file": no file here ends without one
      if (kind !== ' ' && kind !== '-' && kind !== '+') {
        throw new Error(`${where}: ${/^(@@|diff |--- )/.test(line) ? `hunk at line ${hunk.line} has other line counts than its heading` : "a hunk line must start with ' ', '-' or '+'"}`);
      }
      if (kind !== '+') hunk.old.push(line.slice(1));
      if (kind !== '-') hunk.new.push(line.slice(1));
      hunk.remaining = hunk.oldCount - hunk.old.length + hunk.newCount - hunk.new.length;
      continue;
    }
    if (hunk) {
      if (hunk.old.length !== hunk.oldCount || hunk.new.length !== hunk.newCount) throw new Error(`${where}: hunk at line ${hunk.line} has other line counts than its heading`);
      hunk = undefined;
    }
    if (!file && !line.startsWith('diff ') && !line.startsWith('--- ')) {
      const purpose = /^ {2}([a-z][a-z0-9-]*) {2,}\S/.exec(line);
      if (purpose) purposes.add(purpose[1]);
      continue;
    }
    if (line === '' || line.startsWith('diff ')) continue;
    if (line.startsWith('--- ')) {
      const plus = lines[++i] ?? '';
      const path = /^\+\+\+ b\/(\S+)$/.exec(plus)?.[1];
      if (!path || line !== `--- a/${path}`) throw new Error(`${where}: expected '--- a/FILE' and '+++ b/FILE' for one file`);
      if (files.has(path)) throw new Error(`${where}: ${path} appears twice`);
      file = { path, hunks: [] };
      files.set(path, file);
      continue;
    }
    const head = HUNK.exec(line);
    if (!head || !file) throw new Error(`${where}: expected a hunk heading '@@ -L,N +L,N @@ purpose'`);
    const [, oldStart, oldCount = '1', newStart, newCount = '1', tag] = head;
    if (!purposes.has(tag)) throw new Error(`${where}: the hunk's purpose ${JSON.stringify(tag)} is not one the patch's header explains (${[...purposes].join(', ')})`);
    hunk = { line: i + 1, tag, oldStart: Number(oldStart), oldCount: Number(oldCount), newStart: Number(newStart), newCount: Number(newCount), old: [], new: [] };
    hunk.remaining = hunk.oldCount + hunk.newCount;
    file.hunks.push(hunk);
  }
  if (hunk && (hunk.old.length !== hunk.oldCount || hunk.new.length !== hunk.newCount)) throw new Error(`${name}: the last hunk ends early`);
  return { purposes, files };
}

/**
 * `source` with `hunks` applied, each where its heading says and nowhere else (a hunk whose lines
 * are not exactly there throws: the file is not the one the patch was made for). Hunks whose tag
 * is in `off` are left out (the build measures each purpose by turning it off alone).
 */
export function applyHunks(source, hunks, name, off = []) {
  const lines = source.split('\n');
  const out = [];
  let next = 0; // the first original line not yet copied (0-based)
  for (const hunk of hunks) {
    const at = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
    if (at < next) throw new Error(`${name}: hunk @@ -${hunk.oldStart} overlaps the one before`);
    hunk.old.forEach((expected, k) => {
      const found = lines[at + k];
      if (found !== expected) {
        throw new Error(`${name}: the ${hunk.tag} hunk @@ -${hunk.oldStart},${hunk.oldCount} does not apply: line ${at + k + 1} is ${JSON.stringify(found)}, the patch expects ${JSON.stringify(expected)}`);
      }
    });
    out.push(...lines.slice(next, at), ...(off.includes(hunk.tag) ? hunk.old : hunk.new));
    next = at + hunk.oldCount;
  }
  out.push(...lines.slice(next));
  return out.join('\n');
}

/**
 * The esbuild plugin that gives the bundle undici's patched files. `applied` lists the files it
 * patched; `checkApplied()` throws when the bundle left out a file the patch names (the build calls
 * it; a test bundling a few of undici's files does not). `off`: purposes to leave unpatched.
 */
export function patchedUndici(root, { off = [] } = {}) {
  const { version, dir, patch } = pinnedUndici(root);
  const label = `patches/undici@${version}.patch`;
  const { purposes, files } = parsePatch(readFileSync(patch, 'utf8'), label);
  const unknown = off.filter((tag) => !purposes.has(tag));
  if (unknown.length) throw new Error(`${label} has no purpose ${unknown.join(', ')}`);
  const applied = new Set();
  const inDir = dir + sep;
  const plugin = {
    name: 'patched-undici',
    setup(b) {
      b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/].*\.js$/ }, (args) => {
        if (!args.path.startsWith(inDir)) return undefined;
        const path = relative(dir, args.path).split(sep).join('/');
        const file = files.get(path);
        if (!file) return undefined;
        applied.add(path);
        return { contents: applyHunks(readFileSync(args.path, 'utf8'), file.hunks, `${label}, ${path}`, off), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
  const checkApplied = () => {
    const missed = [...files.keys()].filter((path) => !applied.has(path));
    if (missed.length) throw new Error(`${label} patches ${missed.join(', ')}, which the bundle no longer includes: update the patch`);
  };
  return { plugin, applied, checkApplied, version, purposes: [...purposes] };
}
