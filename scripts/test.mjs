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

const children = new Set();

function run(script, args, { capture = false, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env, stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'] });
    children.add(child);
    child.on('exit', () => children.delete(child));
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString('utf8') }));
  });
}

const build = await run(`${root}scripts/build.mjs`, ['--if-changed']);
if (build.code !== 0) process.exit(build.code);

const tsc = run(packageBin('typescript', 'tsc'), ['-p', 'tsconfig.json', '--singleThreaded', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/wes/tsconfig.tsbuildinfo'], { capture: true });
// vitest's workers with huge pages for malloc, the tests' temp folder in memory where the machine
// has one (scripts/test-env.mjs: fewer page faults and system calls, less CPU). Ctrl-C reaches
// vitest from the terminal; a SIGTERM or SIGHUP sent to this process is passed on. Either way this
// waits for vitest to end, then removes the temp folder.
const tmp = memoryTempDir(process.env);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (signal !== 'SIGINT') for (const child of children) child.kill(signal);
  });
}
const vitestEnv = withWorkerTunable(process.env);
const vitest = await run(packageBin('vitest', 'vitest'), ['run', ...process.argv.slice(2)], { env: tmp ? { ...vitestEnv, TMPDIR: tmp } : vitestEnv });
if (tmp) rmSync(tmp, { recursive: true, force: true });
const types = await tsc;
if (types.code !== 0) process.stdout.write(`\ntsc found type errors:\n${types.output}`);
process.exit(vitest.code || types.code);
