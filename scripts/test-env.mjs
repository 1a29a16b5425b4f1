// The environment `npm test` (scripts/test.mjs) runs vitest in, and what the tests take out of it
// again for the programs they start: huge pages for malloc, and a temp folder in memory.
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

import { accessSync, constants, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

export const MEMORY_FS = '/dev/shm';
/** statfs's f_type of a tmpfs. */
export const TMPFS_MAGIC = 0x01021994;
export const MIN_FREE = 4 * 1024 ** 3;
/** wes-test-<pid namespace>-<pid>-<start time>-: a pid alone may be another namespace's, or reused. */
export const RUN_NAME = /^wes-test-(\d+)-(\d+)-(\d+)-/;
/** A folder of another pid namespace (a container sharing /dev/shm) is left for a day. */
const FOREIGN_AGE_MS = 24 * 3600 * 1000;

/**
 * The tests' temp folder (TMPDIR) on a memory filesystem. The suite makes and removes thousands of
 * folders and files (a config folder for each wes it runs, downloads, parts, histories, packed
 * tarballs) and wes syncs what it must not lose; on the 2-core development VM every system call and
 * page fault is dear (the kernel isolates page tables, `Meltdown: Mitigation; PTI`), and ext4's
 * journal and fsync come on top. Measured there, whole `npm test` runs alternated: vitest 137.0 and
 * 134.1 s (222.9 and 218.3 s of CPU) with the temp folder on /dev/shm, 157.3 and 140.3 s (264.5 and
 * 230.6 s) on the disk.
 *
 * Only where the user has not chosen a temp folder (TMPDIR, TMP and TEMP unset: Node's tmpdir()
 * reads all three), on a tmpfs that allows running what is put there (the tests run scripts and a
 * single executable from temp folders, and load a native addon it extracts; Docker mounts
 * /dev/shm noexec) with `minFree` bytes to spare; otherwise undefined, and the tests use the usual
 * temp folder. The caller removes the folder after the run. Its name says which run made it
 * (RUN_NAME): one left by a run that was killed is removed by the next run on this machine.
 */
export function memoryTempDir(env, root = MEMORY_FS, minFree = MIN_FREE) {
  const fs = process.platform === 'linux' ? statfsOf(root) : undefined;
  if (fs?.type !== TMPFS_MAGIC) return undefined;
  const self = processId('self');
  if (!self) return undefined;
  removeOrphans(root, self);
  if (env.TMPDIR || env.TMP || env.TEMP || fs.bavail * fs.bsize < minFree) return undefined;
  try {
    const dir = mkdtempSync(join(root, `wes-test-${self.ns}-${process.pid}-${self.start}-`));
    const probe = join(dir, 'exec-probe.sh');
    writeFileSync(probe, '#!/bin/sh\n', { mode: 0o755 });
    try {
      // access(X_OK) is refused on a filesystem mounted noexec.
      accessSync(probe, constants.X_OK);
      rmSync(probe);
      return dir;
    } catch {
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
  } catch {
    return undefined;
  }
}

function statfsOf(root) {
  try {
    return statfsSync(root);
  } catch {
    return undefined;
  }
}

/** A process's pid namespace and start time (in clock ticks since boot), or undefined when it is gone. */
function processId(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const ns = /\[(\d+)\]/.exec(readlinkSync(`/proc/${pid}/ns/pid`))?.[1];
    return start && ns ? { ns, start } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes the temp folders of earlier runs that are over (`self`: this process's processId): of
 * this pid namespace, whose process is gone or is another now (its start time differs); of another
 * namespace, a day after they were last written. Only this user's folders; one that cannot be
 * removed is left (never a reason to fail).
 */
function removeOrphans(root, self) {
  let names = [];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const run = RUN_NAME.exec(name);
    if (!run) continue;
    const path = join(root, name);
    try {
      const stat = lstatSync(path);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      const [, ns, pid, start] = run;
      const over = ns === self.ns ? processId(pid)?.start !== start : Date.now() - stat.mtimeMs > FOREIGN_AGE_MS;
      if (over) rmSync(path, { recursive: true, force: true });
    } catch {
      // Not ours to remove, or removed meanwhile.
    }
  }
}
