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
    // Started by `npm test`, it had the tunable (glibc, parsing GLIBC_TUNABLES, leaves only its first
    // entry in that memory, so the value there is not compared); what the tests start gets the host's.
    const host = started.get(TUNABLES_BEFORE);
    if (host === undefined) return;
    expect(started.has('GLIBC_TUNABLES')).toBe(true);
    expect(process.env.GLIBC_TUNABLES ?? '').toBe(host);
  });
});
