// Runs one process and measures it: wall time from the clock of the bench's small spawning process
// (spawner.cjs), peak RSS and CPU time from GNU time (`/usr/bin/time -f`) when present. Without GNU
// time only wall time is known.
import { fork } from 'node:child_process';
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;
let timeBinary = null;
let scratch = null;

/** Enables GNU time for every later run (path or null). */
export function useGnuTime(path) {
  timeBinary = path;
}

/** Removes the folder of GNU time reports (end of the run). */
export function removeScratch() {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = null;
}

function scratchFile(name) {
  scratch ??= mkdtempSync(join(tmpdir(), 'wes-bench-measure-'));
  return join(scratch, name);
}

/** Last line of GNU time's -o file is our format; earlier lines may say "Command exited with non-zero status". */
function parseTimeReport(path) {
  try {
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const [rssKb, user, sys] = lines[lines.length - 1].trim().split(/\s+/).map(Number);
    if (![rssKb, user, sys].every(Number.isFinite)) return {};
    return { maxRssMb: rssKb / 1024, cpuMs: (user + sys) * 1000, userMs: user * 1000, sysMs: sys * 1000 };
  } catch {
    return {};
  } finally {
    rmSync(path, { force: true });
  }
}

/** The spawning process, started on first use; it ends when the bench does. */
let spawner = null;
const pending = new Map();
let nextId = 0;

function spawnerProcess() {
  if (spawner) return spawner;
  spawner = fork(fileURLToPath(new URL('./spawner.cjs', import.meta.url)), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  spawner.on('message', ({ id, ...result }) => {
    const resolve = pending.get(id);
    pending.delete(id);
    resolve?.(result);
  });
  spawner.on('exit', (code, signal) => {
    spawner = null;
    for (const resolve of pending.values()) resolve({ code: -1, wallMs: NaN, stdout: '', stderr: `the bench's spawning process ended (${signal ?? code})`, error: 'spawner' });
    pending.clear();
  });
  // Idle, it does not keep the bench alive.
  spawner.unref();
  spawner.channel?.unref();
  return spawner;
}

/**
 * Runs `command args` and resolves with { code, wallMs, maxRssMb?, cpuMs?, stdout, stderr }.
 * opts: env, cwd, stdout ('pipe' | 'ignore' | a file path), timeoutMs (SIGKILL after; default 5
 * minutes, so a hung command cannot hang the bench).
 */
export function measure(command, args, opts = {}) {
  const report = timeBinary ? scratchFile(`time-${process.hrtime.bigint()}.txt`) : null;
  const [file, argv] = report ? [timeBinary, ['-f', '%M %U %S', '-o', report, command, ...args]] : [command, args];
  const id = nextId++;
  const child = spawnerProcess();
  return new Promise((resolve) => {
    // A run in flight keeps the bench waiting for it.
    if (pending.size === 0) child.channel?.ref();
    pending.set(id, (result) => {
      if (pending.size === 0) child.channel?.unref();
      const usage = report && !result.error ? parseTimeReport(report) : {};
      if (report && result.error) rmSync(report, { force: true });
      resolve({ ...result, code: result.code ?? (result.signal ? 128 : -1), ...usage });
    });
    child.send({ id, file, argv, env: opts.env ?? process.env, cwd: opts.cwd, stdout: opts.stdout ?? 'pipe', timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  });
}

/**
 * Runs `makeRun()` warmup + runs times (each call returns a measure() promise) and returns the
 * timed results. A run that fails (non-zero exit unless opts.okCodes has it) stops the series
 * and is returned as `failed` so the case can report why.
 */
export async function repeat(makeRun, { warmup = 1, runs = 3, okCodes = [0] } = {}) {
  const results = [];
  for (let i = 0; i < warmup + runs; i++) {
    const result = await makeRun(i);
    if (!okCodes.includes(result.code)) return { results, failed: result };
    if (i >= warmup) results.push(result);
  }
  return { results, failed: null };
}
