import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
    // Much test time is waiting (dev-server steps, timeouts, retries, child processes): on 2 cores,
    // vitest's default of one worker (cores - 1) leaves the machine idle. But the whole suite is
    // bound by CPU there (about 300 s of it on a fresh clone), and each worker more imports src and
    // the dev-server again and contends for the cores: measured at load 9-12, test/unit took 52 s of
    // CPU with 6 workers and 36 s with 2; 45 middling files 97 s of CPU and 111 s of wall time with
    // 6, 74 s and 94 s with 3. Cores + 2 (4 on 2 cores) keeps two workers busy while two wait.
    // `npx vitest run --maxWorkers=1` rules out interference.
    maxWorkers: availableParallelism() + 2,
    // A worker keeps its modules from one file to the next instead of importing src and the
    // dev-server again for each file: on 2 cores that import was most of the CPU (test/unit alone:
    // 32 s isolated, 13 s shared). No command changes process-wide state
    // (test/unit/process-state.test.ts), and what a test changes in the process (env stubs, the
    // working folder) it puts back.
    isolate: false,
    // `npm test` starts the workers with huge pages for malloc (scripts/test-env.mjs); this gives
    // the programs the tests start the host's GLIBC_TUNABLES back.
    setupFiles: ['test/helpers/worker-env.ts'],
    // The longest files start first, on a fresh clone too (test/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary'] },
  },
});
