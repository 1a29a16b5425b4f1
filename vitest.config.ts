import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // The version the build injects, so wes run in-process by tests reports what the binary does.
  define: { __WES_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test time is waiting (dev-server steps, timeouts, retries, child processes), not CPU:
    // on 2 cores, vitest's default of one worker (cores - 1) leaves the machine idle. Four files
    // at a time keep it busy (`npx vitest run --maxWorkers=1` to rule out interference).
    maxWorkers: 4,
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary'] },
  },
});
