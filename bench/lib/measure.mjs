// Runs one process and measures it: wall time from the harness's clock, peak RSS and CPU time
// from GNU time (`/usr/bin/time -f`) when present. Without GNU time only wall time is known.
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
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

/**
 * Runs `command args` and resolves with { code, wallMs, maxRssMb?, cpuMs?, stdout, stderr }.
 * opts: env, cwd, stdout ('pipe' | 'ignore' | a file path), input (Buffer/string for stdin),
 * timeoutMs (SIGKILL after; default 5 minutes, so a hung command cannot hang the bench), onSpawn(child).
 */
export function measure(command, args, opts = {}) {
  const report = timeBinary ? scratchFile(`time-${process.hrtime.bigint()}.txt`) : null;
  const [file, argv] = report ? [timeBinary, ['-f', '%M %U %S', '-o', report, command, ...args]] : [command, args];
  const outFd = opts.stdout && opts.stdout !== 'pipe' && opts.stdout !== 'ignore' ? openSync(opts.stdout, 'w') : null;
  const stdoutMode = outFd ?? (opts.stdout === 'ignore' ? 'ignore' : 'pipe');
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    // Own process group: a timeout kills GNU time and the command under it together.
    const child = spawn(file, argv, { detached: true, env: opts.env ?? process.env, cwd: opts.cwd, stdio: [opts.input !== undefined ? 'pipe' : 'ignore', stdoutMode, 'pipe'] });
    const out = [];
    const err = [];
    child.stdout?.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    const timer = setTimeout(() => killGroup(child), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    if (opts.input !== undefined) child.stdin.end(opts.input);
    opts.onSpawn?.(child);
    child.on('error', (error) => {
      clearTimeout(timer);
      if (outFd !== null) closeSync(outFd);
      resolve({ code: -1, wallMs: NaN, stdout: '', stderr: String(error), error });
    });
    child.on('close', (code, signal) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      if (outFd !== null) closeSync(outFd);
      const usage = report ? parseTimeReport(report) : {};
      resolve({ code: code ?? (signal ? 128 : -1), signal, wallMs, ...usage, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
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
