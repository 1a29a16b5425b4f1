// scripts/test-env.mjs: `npm test` starts vitest with huge pages for malloc, and each worker gives
// the programs the tests start the host's GLIBC_TUNABLES back.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the build's scripts are plain JavaScript
import * as testEnv from '../../scripts/test-env.mjs';

type Env = Record<string, string | undefined>;
const { withWorkerTunable, restoreTunables, TUNABLES_BEFORE, WORKER_TUNABLE } = testEnv as {
  withWorkerTunable: (env: Env) => Env;
  restoreTunables: (env: Env) => void;
  TUNABLES_BEFORE: string;
  WORKER_TUNABLE: string;
};

describe('the workers\' GLIBC_TUNABLES', () => {
  it('adds the huge-page tunable for vitest and puts the host\'s value back for what the tests start', () => {
    for (const host of [undefined, 'glibc.malloc.arena_max=2']) {
      const env: Env = host === undefined ? { PATH: '/bin' } : { PATH: '/bin', GLIBC_TUNABLES: host };
      const forVitest = withWorkerTunable(env);
      expect(forVitest.GLIBC_TUNABLES).toBe(host ? `${host}:${WORKER_TUNABLE}` : WORKER_TUNABLE);
      expect(env).toEqual(host === undefined ? { PATH: '/bin' } : { PATH: '/bin', GLIBC_TUNABLES: host });
      const worker = { ...forVitest };
      restoreTunables(worker);
      expect(worker).toEqual(env);
      restoreTunables(worker);
      expect(worker).toEqual(env);
    }
  });

  it('leaves a host that already says how malloc uses huge pages as it is', () => {
    const env: Env = { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' };
    expect(withWorkerTunable(env)).toBe(env);
    const worker = { ...env };
    restoreTunables(worker);
    expect(worker).toEqual(env);
  });

  it('this worker\'s environment holds no trace of it, whatever started the run', () => {
    expect(process.env[TUNABLES_BEFORE]).toBeUndefined();
    expect(process.env.GLIBC_TUNABLES ?? '').not.toContain(WORKER_TUNABLE);
    // The worker itself started with it when `npm test` started the run (its environment at exec).
    if (process.platform !== 'linux') return;
    const started = readFileSync('/proc/self/environ', 'utf8').split('\0');
    if (started.some((v) => v.startsWith(`${TUNABLES_BEFORE}=`))) expect(started.find((v) => v.startsWith('GLIBC_TUNABLES='))).toContain(WORKER_TUNABLE);
  });
});
