// The dev-server is an independent implementation of the service interface: it shares with the
// client only src/protocol (the definitions both sides must agree on, pinned by golden fixtures)
// and src/util (tiny helpers with no reading of the interface in them). These tests read every
// import in src/ and hold that boundary both ways, and keep src/ free of import cycles (the
// command tree once imported help and completion, which imported the program that built the tree).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Edge {
  from: string;
  to: string;
  /** `import type` / `export type`: gone at run time, so it makes no cycle. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every relative module specifier of a file: static imports, re-exports, and dynamic import(). */
function relativeSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) found.push(match[1]!);
  return found;
}

const TYPE_ONLY = /^\s*(?:import|export)\s+type\b[^;]*?from\s*['"][^'"]+['"];?/gm;

function edges(): Edge[] {
  return sourceFiles(join(root, 'src')).flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    const runtime = new Set(relativeSpecifiers(source.replace(TYPE_ONLY, '')));
    return relativeSpecifiers(source).map((spec) => ({
      from: relative(root, file),
      to: relative(root, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'),
      typeOnly: !runtime.has(spec),
    }));
  });
}

/** The import cycles among `edges` (strongly connected components of more than one module). */
function cycles(list: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of list) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);
const show = (list: Edge[]) => list.map((e) => `${e.from} -> ${e.to}`);

/**
 * What src/commands/<noun>/ may hold besides its verbs and group.ts: the noun's options (parsed
 * while the command line is read), its renderers (data turned into text), and what its group file
 * registers. A helper that calls a client, or holds a use case's control flow, belongs in
 * src/features/<noun> (told through a Reporter) or src/command-kit/<noun> (CLI glue shared by verbs
 * and `wes mcp`): a new file here must be added to this list, said as what it is.
 */
const COMMAND_FOLDER_FILES: Record<string, 'options' | 'renderer' | 'group'> = {
  'api/fields.ts': 'options',
  'api/print.ts': 'renderer',
  'api/syntax.ts': 'options',
  'api/target.ts': 'options',
  'config/key-arg.ts': 'options',
  'config/setting-problems.ts': 'renderer',
  'doctor/connection-hint.ts': 'group',
  'help/topics.ts': 'renderer',
  'jobs/batch-options.ts': 'options',
  'jobs/batch-outcome.ts': 'renderer',
  'jobs/batch-progress.ts': 'renderer',
  'jobs/follow-view.ts': 'renderer',
  'jobs/job-view.ts': 'renderer',
  'jobs/label-option.ts': 'options',
  'jobs/options.ts': 'options',
  'jobs/remote-list-view.ts': 'renderer',
  'jobs/saved-view.ts': 'renderer',
  'jobs/stream-text.ts': 'renderer',
  'jobs/submitted-view.ts': 'renderer',
  'legacy/missing-job-api.ts': 'group',
  'legacy/original-ref.ts': 'options',
  'legacy/prompt-view.ts': 'renderer',
  'legacy/report.ts': 'renderer',
  'library/options.ts': 'options',
  'library/task-view.ts': 'renderer',
  'library/url.ts': 'options',
  'models/answer-report.ts': 'renderer',
  'models/options.ts': 'options',
  'models/output.ts': 'renderer',
  'models/progress.ts': 'renderer',
  'models/request-view.ts': 'renderer',
  'workflows/convert-options.ts': 'options',
  'workflows/saved-source.ts': 'options',
};

/** Every file of src/commands/<noun>/ that is neither a verb nor its group.ts, as `noun/file.ts`. */
function commandFolderHelpers(): string[] {
  const dir = join(root, 'src/commands');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((noun) => readdirSync(join(dir, noun.name)).map((file) => `${noun.name}/${file}`))
    .filter((path) => basename(path) !== 'group.ts' && !/^export default defineVerb\(/m.test(readFileSync(join(dir, path), 'utf8')))
    .sort();
}

describe('module boundaries of src/', () => {
  const all = edges();

  it('finds imports of every form', () => {
    expect(relativeSpecifiers(`import a from './a.js';\nexport { b } from "../b.js";\nconst c = await import('./c.js');\nimport './d.js';`)).toEqual([
      './a.js',
      '../b.js',
      './c.js',
      './d.js',
    ]);
    expect(all.length).toBeGreaterThan(100);
    expect(cycles([{ from: 'a', to: 'b', typeOnly: false }, { from: 'b', to: 'a', typeOnly: false }])).toEqual([['a', 'b']]);
  });

  it('has no import cycle (type-only imports aside): the command tree is built in one module and passed in', () => {
    expect(cycles(all.filter((e) => !e.typeOnly))).toEqual([]);
    const bad = all.filter((e) => under(e.from, 'src/commands') && ['src/program.ts', 'src/command-tree.ts'].includes(e.to));
    expect(show(bad)).toEqual([]);
  });

  it('the dev-server imports only itself, src/protocol and src/util (never client code)', () => {
    const allowed = ['src/dev-server', 'src/protocol', 'src/util'];
    const bad = all.filter((e) => under(e.from, 'src/dev-server') && !allowed.some((dir) => under(e.to, dir)));
    expect(show(bad)).toEqual([]);
  });

  it('src/protocol imports nothing but itself, so it carries no reading of either side', () => {
    const bad = all.filter((e) => under(e.from, 'src/protocol') && !under(e.to, 'src/protocol'));
    expect(show(bad)).toEqual([]);
  });

  it('the layers of the client import downward only: commands over features over clients, render beside', () => {
    // features/ tell what happens through a Reporter; they never print, and never reach the commands.
    const features = all.filter((e) => under(e.from, 'src/features') && ['src/render', 'src/commands', 'src/factory.ts', 'src/program.ts', 'src/command-tree.ts'].some((dir) => under(e.to, dir)));
    expect(show(features)).toEqual([]);
    // Below the features nothing renders and nothing knows a use case or a command.
    const lower = ['src/clients', 'src/http', 'src/files', 'src/config', 'src/workflows', 'src/protocol', 'src/util', 'src/completion'];
    const up = all.filter((e) => lower.some((dir) => under(e.from, dir)) && ['src/render', 'src/features', 'src/commands', 'src/factory.ts'].some((dir) => under(e.to, dir)));
    expect(show(up)).toEqual([]);
    // render draws what it is given: no client, use case or command in it.
    const render = all.filter((e) => under(e.from, 'src/render') && ['src/clients', 'src/features', 'src/commands'].some((dir) => under(e.to, dir)));
    expect(show(render)).toEqual([]);
  });

  it('the MCP server and src/command-kit sit below the commands: neither imports src/commands', () => {
    const bad = all.filter((e) => ['src/mcp', 'src/command-kit'].some((dir) => under(e.from, dir)) && under(e.to, 'src/commands'));
    expect(show(bad)).toEqual([]);
  });

  it('a verb is loaded by the manifest alone: no verb borrows from another', () => {
    const verbs = new Set(all.map((e) => e.to).filter((to, i, list) => list.indexOf(to) === i && under(to, 'src/commands') && /^export default defineVerb\(/m.test(readFileSync(join(root, to), 'utf8'))));
    expect(verbs.size).toBeGreaterThan(50);
    const bad = all.filter((e) => e.from !== 'src/commands/manifest.ts' && verbs.has(e.to));
    expect(show(bad)).toEqual([]);
  });

  it('no two modules import each other, not even for a type', () => {
    expect(cycles(all)).toEqual([]);
  });

  it('the client never imports the dev-server, except the `wes dev-server` command that starts it', () => {
    const bad = all.filter((e) => !under(e.from, 'src/dev-server') && !under(e.from, 'src/commands/dev-server') && under(e.to, 'src/dev-server'));
    expect(show(bad)).toEqual([]);
  });
  it('src/commands/<noun>/ holds verbs, group files, options and per-noun renderers only', () => {
    const helpers = commandFolderHelpers();
    expect(helpers.length).toBeGreaterThan(10);
    const unlisted = helpers.filter((path) => !(path in COMMAND_FOLDER_FILES));
    expect(unlisted, 'a helper that calls clients or holds control flow goes to src/features or src/command-kit; a renderer or options file is listed in COMMAND_FOLDER_FILES').toEqual([]);
    // The list names only files that are there (a file moved down, or made a verb, leaves it).
    const stale = Object.keys(COMMAND_FOLDER_FILES).filter((path) => !helpers.includes(path));
    expect(stale).toEqual([]);
  });

  it('the renderers and options files of src/commands make no client: they turn what they are given into text', () => {
    const bad = Object.keys(COMMAND_FOLDER_FILES).filter((path) => /\.client\(|\bnew \w*Client\(|\.http\(|\.httpFor\(/.test(readFileSync(join(root, 'src/commands', path), 'utf8')));
    expect(bad).toEqual([]);
  });
});
