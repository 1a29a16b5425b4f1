import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Files that need modules of their own: they read process-wide state that an earlier file's
 * in-process run of wes leaves behind (src/util/blake3-setting.ts keeps the environment the last
 * program was given). Once that setting is no longer module-level (issue 30), the list can go.
 */
const ISOLATED = ['test/unit/blake3-backends.test.ts', 'test/cli/blake3-setting-from-given-env.test.ts'];

export default defineConfig({
  // The version the build injects, so wes run in-process by tests reports what the binary does.
  define: { __WES_VERSION__: JSON.stringify(pkg.version) },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test time is waiting (dev-server steps, timeouts, retries, child processes), not CPU:
    // on 2 cores, vitest's default of one worker (cores - 1) leaves the machine idle. With modules
    // shared, six files at a time beat four by 12 s of `npm test`'s 80-90 s here (76 and 68 s
    // against 89 and 80 s, alternated, load 3-8); eight gained no more (74 s)
    // (`npx vitest run --maxWorkers=1` to rule out interference).
    maxWorkers: 6,
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary'] },
    projects: [
      {
        // A worker keeps its modules from one file to the next instead of importing src and the
        // dev-server again for each of the 230 files: on 2 cores that import was most of the CPU
        // (test/unit alone: 32 s isolated, 13 s shared). Tests keep no state in modules; what they
        // change in the process (env stubs, the working folder) they put back.
        extends: true,
        test: { name: 'shared', isolate: false, include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED] },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
