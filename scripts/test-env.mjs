// The environment `npm test` (scripts/test.mjs) runs vitest in, and what the tests take out of it
// again for the programs they start.
//
// glibc.malloc.hugetlb=1: glibc's malloc asks for transparent huge pages (madvise) for its heaps
// and large blocks, which is every Buffer. A vitest worker lives the whole run and moves hundreds
// of MB through Buffers (bodies, downloads, uploads), so it keeps touching fresh memory; on the
// 2-core development VM a first touch costs about 14 µs per 4 KiB page and 2.4 ms per 2 MiB huge
// page (1.2 µs per 4 KiB). Measured there: the whole suite's page faults 2.85-3.06 M -> 2.30-2.34 M
// (two runs each); four memory-heavy files on one worker, 3 runs each alternated, CPU 22.3 -> 20.7 s.
// Where transparent huge pages are off, or on a libc that is not glibc, it changes nothing.
//
// The programs the tests start (wes, shells, tmux) run as a user runs them, without it (each worker
// puts GLIBC_TUNABLES back as it starts, once glibc has read it: test/helpers/worker-env.ts): a short
// process gains nothing (`node -e 0` 70 vs 74 ms, `jobs get` 160 vs 162 ms, within the noise), and a
// peak-RSS test should see the allocator users get.

export const WORKER_TUNABLE = 'glibc.malloc.hugetlb=1';

/**
 * Set while the tests run under WORKER_TUNABLE that test.mjs added: `-` when the host had no
 * GLIBC_TUNABLES, else `=` and the host's value (which may be empty).
 */
export const TUNABLES_BEFORE = 'WES_TEST_GLIBC_TUNABLES_BEFORE';

/** `env` for vitest: WORKER_TUNABLE added, unless GLIBC_TUNABLES already says how malloc uses huge pages. */
export function withWorkerTunable(env) {
  const { [TUNABLES_BEFORE]: _inherited, ...host } = env;
  const before = host.GLIBC_TUNABLES;
  if (/(^|:)glibc\.malloc\.hugetlb=/.test(before ?? '')) return host;
  return { ...host, GLIBC_TUNABLES: before ? `${before}:${WORKER_TUNABLE}` : WORKER_TUNABLE, [TUNABLES_BEFORE]: before === undefined ? '-' : `=${before}` };
}

/**
 * Puts GLIBC_TUNABLES back in `env` (a worker's process.env, as it starts: test/helpers/worker-env.ts)
 * as it was before withWorkerTunable, so that whatever the tests start inherits the host's.
 */
export function restoreTunables(env) {
  const before = env[TUNABLES_BEFORE];
  if (before === undefined) return;
  delete env[TUNABLES_BEFORE];
  if (before.startsWith('=')) env.GLIBC_TUNABLES = before.slice(1);
  else delete env.GLIBC_TUNABLES;
}
