import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/longest-first.js';

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
    // on 2 cores, vitest's default of one worker (cores - 1) leaves the machine idle. Six files at
    // a time keep it busy (`npx vitest run --maxWorkers=1` to rule out interference).
    maxWorkers: 6,
    // A worker keeps its modules from one file to the next instead of importing src and the
    // dev-server again for each file: on 2 cores that import was most of the CPU (test/unit alone:
    // 32 s isolated, 13 s shared). No command changes process-wide state
    // (test/unit/process-state.test.ts), and what a test changes in the process (env stubs, the
    // working folder) it puts back.
    isolate: false,
    // The longest files start first, on a fresh clone too (test/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary'] },
  },
});
