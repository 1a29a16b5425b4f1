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
/** Each run in flight: its id → the spawning process it was sent to, and what settles it. */
const pending = new Map();
let nextId = 0;

/** While a run is in flight the spawning process (and its channel) keeps the bench alive; idle, it does not. */
function holdBench(child, hold) {
  if (hold) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

function settle(id, result) {
  const run = pending.get(id);
  if (!run) return;
  pending.delete(id);
  run.done(result);
}

/** Whether a run is in flight on `child`. */
const busy = (child) => [...pending.values()].some((run) => run.child === child);

function spawnerProcess() {
  if (spawner) return spawner;
  // Not the bench's own node options (--cpu-prof, a heap size): they would change what the spawner costs.
  const child = fork(fileURLToPath(new URL('./spawner.cjs', import.meta.url)), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
  spawner = child;
  child.on('message', ({ id, ...result }) => settle(id, result));
  // A spawner that dies settles the runs in flight on it as failed; the next run starts another.
  const ended = (why) => {
    if (spawner === child) spawner = null;
    for (const [id, run] of [...pending]) {
      if (run.child === child) settle(id, { code: -1, wallMs: NaN, stdout: '', stderr: `the bench's spawning process ended (${why})`, error: 'spawner' });
    }
  };
  child.on('disconnect', () => ended('its channel closed'));
  child.on('exit', (code, signal) => ended(signal ?? `exit ${code}`));
  child.on('error', (err) => ended(err.message));
  holdBench(child, false);
  return child;
}

/**
 * Runs `command args` and resolves with { code, wallMs, maxRssMb?, cpuMs?, stdout, stderr }, or
 * with `error` set and code -1 when it could not be run.
 * opts: env, cwd, stdout ('pipe' | 'ignore' | a file path), timeoutMs (SIGKILL after; default 5
 * minutes, so a hung command cannot hang the bench).
 */
export function measure(command, args, opts = {}) {
  const report = timeBinary ? scratchFile(`time-${process.hrtime.bigint()}.txt`) : null;
  const [file, argv] = report ? [timeBinary, ['-f', '%M %U %S', '-o', report, command, ...args]] : [command, args];
  const id = nextId++;
  const child = spawnerProcess();
  return new Promise((resolve) => {
    if (!busy(child)) holdBench(child, true);
    pending.set(id, {
      child,
      done: (result) => {
        if (!busy(child)) holdBench(child, false);
        const usage = report && !result.error ? parseTimeReport(report) : {};
        if (report && result.error) rmSync(report, { force: true });
        resolve({ ...result, code: result.code ?? (result.signal ? 128 : -1), ...usage });
      },
    });
    const request = { id, file, argv, env: opts.env ?? process.env, cwd: opts.cwd, stdout: opts.stdout ?? 'pipe', timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS };
    child.send(request, (err) => {
      if (err) settle(id, { code: -1, wallMs: NaN, stdout: '', stderr: `could not ask the bench's spawning process to run it: ${err.message}`, error: 'spawner' });
    });
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
