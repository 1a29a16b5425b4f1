// The dev-server is an independent implementation of the service interface: it shares with the
// client only src/protocol (the definitions both sides must agree on, pinned by golden fixtures)
// and src/util (tiny helpers with no reading of the interface in them). These tests read every
// import in src/ and hold that boundary both ways.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Edge {
  from: string;
  to: string;
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

function edges(): Edge[] {
  return sourceFiles(join(root, 'src')).flatMap((file) =>
    relativeSpecifiers(readFileSync(file, 'utf8')).map((spec) => ({
      from: relative(root, file),
      to: relative(root, resolve(dirname(file), spec)),
    })),
  );
}

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);
const show = (list: Edge[]) => list.map((e) => `${e.from} -> ${e.to}`);

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

  it('the client never imports the dev-server, except the `wes dev-server` command that starts it', () => {
    const bad = all.filter((e) => !under(e.from, 'src/dev-server') && !under(e.from, 'src/commands/dev-server') && under(e.to, 'src/dev-server'));
    expect(show(bad)).toEqual([]);
  });
});
