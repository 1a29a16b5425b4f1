// scripts/test-env.mjs: `npm test` starts vitest with huge pages for malloc, and each worker gives
// the programs the tests start the host's GLIBC_TUNABLES back.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the build's scripts are plain JavaScript
import * as testEnv from '../../scripts/test-env.mjs';

type Env = Record<string, string | undefined>;
const { withWorkerTunable, restoreTunables, TUNABLES_BEFORE, WORKER_TUNABLE, memoryTempDir, MEMORY_FS, TMPFS_MAGIC, RUN_NAME } = testEnv as {
  withWorkerTunable: (env: Env) => Env;
  restoreTunables: (env: Env) => void;
  TUNABLES_BEFORE: string;
  WORKER_TUNABLE: string;
  memoryTempDir: (env: Env, root?: string, minFree?: number) => string | undefined;
  MEMORY_FS: string;
  TMPFS_MAGIC: number;
  RUN_NAME: RegExp;
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

/** Whether this machine has the memory filesystem `npm test` puts the temp folder on: a tmpfs /dev/shm not mounted noexec (Docker's is). */
function memoryFsUsable(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    if (statfsSync(MEMORY_FS).type !== TMPFS_MAGIC) return false;
    // mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ...
    const mount = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((line) => line.split(' ')).filter((f) => f[4] === MEMORY_FS).at(-1);
    return mount !== undefined && !mount[5]!.split(',').includes('noexec');
  } catch {
    return false;
  }
}

describe('the tests\' temp folder in memory', () => {
  it('is the user\'s TMPDIR, TMP or TEMP when they set one, and the usual temp folder off a tmpfs', () => {
    for (const name of ['TMPDIR', 'TMP', 'TEMP']) expect(memoryTempDir({ [name]: '/var/tmp' }, MEMORY_FS, 0)).toBeUndefined();
    // /proc is no tmpfs: nothing is made there, and the tests use the usual temp folder.
    expect(memoryTempDir({}, '/proc', 0)).toBeUndefined();
  });

  it.skipIf(!memoryFsUsable())('is a fresh folder that runs scripts, named for this run; one a run that is over left is removed', () => {
    const made: string[] = [];
    try {
      const first = memoryTempDir({}, MEMORY_FS, 0);
      expect(first).toBeDefined();
      made.push(first!);
      expect(dirname(first!)).toBe(MEMORY_FS);
      // wes-test-<pid namespace>-<pid>-<start time>-: this process's.
      const [, ns, pid, start] = RUN_NAME.exec(basename(first!)) ?? [];
      expect(pid).toBe(String(process.pid));
      // Emptied of its probe, which it could run.
      expect(readdirSync(first!)).toEqual([]);
      expect(() => accessSync(first!, constants.W_OK | constants.X_OK)).not.toThrow();

      const exited = spawnSync('true').pid;
      const folder = (name: string) => {
        const path = join(MEMORY_FS, name);
        mkdirSync(join(path, 'inner'), { recursive: true });
        made.push(path);
        return path;
      };
      const gone = folder(`wes-test-${ns}-${exited}-${start}-gone`);
      const reused = folder(`wes-test-${ns}-${process.pid}-${Number(start) - 1}-reused`);
      const alive = folder(`wes-test-${ns}-${process.pid}-${start}-alive`);
      const foreign = folder(`wes-test-1-${exited}-${start}-container`);
      const second = memoryTempDir({}, MEMORY_FS, 0);
      made.push(second!);
      expect(second).not.toBe(first);
      // A process that is gone, or a pid now another process's: removed. This run's, and a fresh one of another pid namespace: kept.
      expect([gone, reused, alive, foreign, first!].map((path) => existsSync(path))).toEqual([false, false, true, true, true]);
    } finally {
      for (const path of made) rmSync(path, { recursive: true, force: true });
    }
  });
});
