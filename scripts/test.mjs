// `npm test`: build unless dist/ is already made from these sources (the spawned-binary tests run
// bin/wes.js; right after `npm ci` it is), then type-check and run the suite
// side by side. tsc is TypeScript 7's native compiler, on one thread: the suite is bound by CPU on
// a 2-core runner, and a fresh clone's whole check takes 6.5 s of CPU that way (9 s on its default
// threads; TypeScript 5.9 took 20.5 s). It is incremental, its state kept under
// node_modules/.cache (a clean clone simply checks everything). Arguments go to vitest (`npm test
// -- test/cli`). Exits non-zero when either fails; tsc's report is printed after vitest's so the
// two never interleave.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageBin } from './package-bin.mjs';
import { memoryTempDir, withWorkerTunable } from './test-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each running child, and whether it leads a process group of its own. */
const children = new Map();
/** The signal this script was sent (Ctrl-C, SIGTERM, SIGHUP), if any. */
let interrupted;

/**
 * Runs a node script. `group`: in a session and process group of its own (not on Windows), so a
 * signal passed on reaches the processes it starts too: vitest's workers outlive their main
 * process by seconds otherwise, writing into the temp folder this script then removes.
 */
function run(script, args, { capture = false, env = process.env, group = false } = {}) {
  return new Promise((resolve, reject) => {
    const detached = group && process.platform !== 'win32';
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env, detached, stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'] });
    children.set(child, detached);
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), signal, output: Buffer.concat(output).toString('utf8') });
    });
  });
}

// Ctrl-C, a SIGTERM or a SIGHUP is passed on to every child (to the whole of vitest's group), and
// this script waits for them to end, then removes the temp folder and exits non-zero.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted ??= signal;
    for (const [child, detached] of children) {
      try {
        if (detached) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // already gone
      }
    }
  });
}

const build = await run(`${root}scripts/build.mjs`, ['--if-changed']);
if (build.code !== 0) process.exit(build.code);

const tsc = run(packageBin('typescript', 'tsc'), ['-p', 'tsconfig.json', '--singleThreaded', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/wes/tsconfig.tsbuildinfo'], { capture: true });
// vitest's workers with huge pages for malloc, the tests' temp folder in memory where the machine
// has one (scripts/test-env.mjs: fewer page faults and system calls, less CPU).
const tmp = memoryTempDir(process.env);
const vitestEnv = withWorkerTunable(process.env);
const vitest = await run(packageBin('vitest', 'vitest'), ['run', ...process.argv.slice(2)], { env: tmp ? { ...vitestEnv, TMPDIR: tmp } : vitestEnv, group: true });
if (tmp) {
  try {
    rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  } catch (error) {
    process.stderr.write(`npm test: could not remove the tests' temp folder ${tmp} (${error.code ?? error.message}); the next run removes it\n`);
  }
}
const types = await tsc;
// A tsc stopped by the signal found nothing: its report is for a check that ran to its end.
if (types.code !== 0 && !types.signal && !interrupted) process.stdout.write(`\ntsc found type errors:\n${types.output}`);
process.exit(vitest.code || types.code || (interrupted ? 130 : 0));
