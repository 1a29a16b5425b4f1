// Bundles src/ with esbuild (code-splitting keeps command modules and the dev-server lazy,
// so `wes --version` loads almost nothing). Dependencies stay in node_modules.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts', 'dev-server': 'src/dev-server/index.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __WES_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
