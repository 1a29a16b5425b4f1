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

/** The host's GLIBC_TUNABLES as TUNABLES_BEFORE records it. */
const recorded = (host: string | undefined) => (host === undefined ? '-' : `=${host}`);

describe('the workers\' GLIBC_TUNABLES', () => {
  it('adds the huge-page tunable for vitest and puts the host\'s value back, unset or empty alike, for what the tests start', () => {
    for (const host of [undefined, '', 'glibc.malloc.arena_max=2']) {
      const env: Env = host === undefined ? { PATH: '/bin' } : { PATH: '/bin', GLIBC_TUNABLES: host };
      const copy = { ...env };
      const forVitest = withWorkerTunable(env);
      expect(forVitest).toStrictEqual({ ...env, GLIBC_TUNABLES: host ? `${host}:${WORKER_TUNABLE}` : WORKER_TUNABLE, [TUNABLES_BEFORE]: recorded(host) });
      expect(env).toStrictEqual(copy);
      const worker = { ...forVitest };
      restoreTunables(worker);
      expect(worker).toStrictEqual(env);
      expect('GLIBC_TUNABLES' in worker).toBe(host !== undefined);
      restoreTunables(worker);
      expect(worker).toStrictEqual(env);
    }
  });

  it('leaves a host that already says how malloc uses huge pages as it is, and drops a marker it inherited', () => {
    const env: Env = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0' };
    expect(withWorkerTunable(env)).toStrictEqual(env);
    expect(withWorkerTunable({ ...env, [TUNABLES_BEFORE]: '-' })).toStrictEqual(env);
    // A marker inherited from an outer `npm test` is replaced by this run's.
    expect(withWorkerTunable({ PATH: '/bin', [TUNABLES_BEFORE]: '=x' })).toStrictEqual({ PATH: '/bin', GLIBC_TUNABLES: WORKER_TUNABLE, [TUNABLES_BEFORE]: '-' });
  });

  it('this worker\'s environment is the host\'s again, whatever started the run', () => {
    expect(process.env[TUNABLES_BEFORE]).toBeUndefined();
    if (process.platform !== 'linux') return;
    // The environment the worker started with (/proc/self/environ is fixed at exec).
    const started = new Map(
      readFileSync('/proc/self/environ', 'utf8')
        .split('\0')
        .filter((v) => v.includes('='))
        .map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)] as const),
    );
    const before = started.get(TUNABLES_BEFORE);
    // Not started by `npm test`: nothing was added, nothing to put back.
    if (before === undefined) return;
    // glibc, parsing GLIBC_TUNABLES, leaves only its first entry in that memory: the tunable is that
    // entry when the host had none of its own.
    if (before === '-' || before === '=') expect(started.get('GLIBC_TUNABLES')).toBe(WORKER_TUNABLE);
    if (before === '-') expect('GLIBC_TUNABLES' in process.env).toBe(false);
    else expect(process.env.GLIBC_TUNABLES).toBe(before.slice(1));
  });
});
