// In the bundle, wes's own imports of node:crypto (outside the dev-server) get functions that load
// node:crypto when first called (the lazy-crypto substitution of scripts/build-plugins.mjs). This bundles a
// module as the build does and checks each function does what node:crypto's does, and that wes
// imports no other name of node:crypto (esbuild would leave it undefined in a .ts file).
import * as crypto from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error the build's plugins are plain JavaScript
import { LAZY_CRYPTO, substitutions } from '../../scripts/build-plugins.mjs';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'wes-lazy-crypto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bundle(source: string): Promise<string> {
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  const entry = join(src, `m${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(entry, source);
  const out = `${entry}.cjs`;
  await build({ entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'cjs', plugins: [substitutions()], logLevel: 'silent' });
  return out;
}

describe("wes's node:crypto in the bundle", () => {
  it('gives functions that behave as node:crypto’s', async () => {
    const out = await bundle(`import { ${LAZY_CRYPTO.join(', ')} } from 'node:crypto'; export { ${LAZY_CRYPTO.join(', ')} };`);
    const lazy = require(out) as typeof crypto;
    expect(lazy.randomBytes).not.toBe(crypto.randomBytes);
    expect(lazy.randomBytes(16)).toHaveLength(16);
    expect(lazy.randomUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("leaves a dependency's node:crypto alone when the checkout itself sits in a src/ folder", async () => {
    const dep = join(dir, 'src', 'wes', 'node_modules', 'dep');
    mkdirSync(dep, { recursive: true });
    writeFileSync(join(dep, 'index.mjs'), "import crypto from 'node:crypto'; export const pbkdf2Sync = crypto.pbkdf2Sync;");
    const out = await bundle(`export { pbkdf2Sync } from ${JSON.stringify(join(dep, 'index.mjs'))};`);
    expect((require(out) as typeof crypto).pbkdf2Sync).toBe(crypto.pbkdf2Sync);
  });

  it('gives every name wes imports from node:crypto (outside the dev-server), which imports nothing else of it', () => {
    const root = join(import.meta.dirname, '../../src');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.startsWith(`dev-server${sep}`));
    const names = new Set<string>();
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/import\s+([^;]*?)\s+from\s+'node:crypto'/g)) {
        expect(m[1], file).toMatch(/^(type\s+)?\{[^}]*\}$/); // named imports only: no namespace or default
        if (m[1]!.startsWith('type')) continue;
        for (const name of m[1]!.replace(/[{}]/g, '').split(',').map((n) => n.trim()).filter(Boolean)) if (!name.startsWith('type ')) names.add(name);
      }
      expect(text, file).not.toMatch(/require\('node:crypto'\)|import\('node:crypto'\)/);
    }
    expect(names.size).toBeGreaterThan(0);
    for (const name of names) expect(LAZY_CRYPTO, name).toContain(name);
  });
});
