// What each part of the build buys, measured by turning it off alone: builds one variant of the
// bundle per part (scripts/build-bundle.mjs `off`), then times `wes --version` and `wes jobs get
// ID --json` (against a dev-server of this checkout's dist/, started here) for every variant and
// `node -e 0`, interleaved round by round so a busy machine slows them alike, and counts their
// instructions under callgrind (valgrind), which a busy machine does not change. Prints a Markdown
// table: README.md, Development, "How the build is made" holds its latest output.
//
//   node scripts/build-measure.mjs [--runs 15] [--callgrind 3] [--only full,commonjs,...] [--cold]
//
// Each variant gets its own WES_CONFIG_DIR, so its code cache is its own and warm after the
// warm-up runs (the `code-cache` variant is the full build run with WES_CODE_CACHE=0). --cold runs
// every variant without the code cache (as a first run after an install, or WES_CODE_CACHE=0).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundle } from './build-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** [name, parts turned off, extra environment, what turning it off means]. */
const VARIANTS = [
  ['full', [], {}, 'the shipped build, code cache warm'],
  ['code-cache', [], { WES_CODE_CACHE: '0' }, 'no V8 code cache (WES_CODE_CACHE=0)'],
  ['commonjs', ['commonjs'], {}, 'chunks left as ES modules (no code cache either: it hooks the CommonJS loader)'],
  ['program-first', ['program-first'], {}, 'one esbuild pass'],
  ['bundle-dependencies', ['bundle-dependencies'], {}, 'dependencies required from node_modules (no patch or substitution applies)'],
  ['undici-internals', ['undici-internals'], {}, "src/http/undici-core.ts takes undici's index"],
  ['patch:lazy-http', ['patch:lazy-http'], {}, 'undici loads node:http'],
  ['patch:no-h2', ['patch:no-h2'], {}, "undici's HTTP/2 client bundled"],
  ['patch:no-formdata', ['patch:no-formdata'], {}, "undici's fetch body bundled"],
  ['patch:no-socks', ['patch:no-socks'], {}, "undici's SOCKS agent bundled"],
  ['lazy-assert', ['lazy-assert'], {}, 'undici loads node:assert'],
  ['wasm-file', ['wasm-file'], {}, "undici's parser as base64 in the JavaScript"],
  ['lazy-crypto', ['lazy-crypto'], {}, "wes's own code loads node:crypto"],
  ['lazy-child-process', ['lazy-child-process'], {}, 'commander loads node:child_process'],
];

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '15' }, callgrind: { type: 'string', default: '3' }, only: { type: 'string' }, cold: { type: 'boolean', default: false } } });
const runs = Number(args.runs);
const callgrindRuns = Number(args.callgrind);
const only = args.only?.split(',');
const variants = VARIANTS.filter(([name]) => name === 'full' || ((!only || only.includes(name)) && !(args.cold && name === 'code-cache')));
const log = (line) => process.stderr.write(`${line}\n`);
const loads = [loadavg()[0]];
/** How a run's CPU time is read: perf's task-clock (to the microsecond), else GNU time (to 10 ms), else not. */
const cpuClock = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', 'true']).status === 0 ? 'perf' : existsSync('/usr/bin/time') ? 'time' : null;


const scratch = mkdtempSync(join(tmpdir(), 'wes-build-measure-'));
if (!process.env.WES_BUILD_MEASURE_KEEP) process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

// One folder per variant: dist/, bin/wes.js, and node_modules (external add-ons; every
// dependency for bundle-dependencies).
const built = new Map();
for (const [name, off] of variants) {
  if (built.has(off.join())) continue;
  const dir = join(scratch, name.replace(':', '-'));
  const started = performance.now();
  await bundle(root, join(dir, 'dist'), { off });
  mkdirSync(join(dir, 'bin'));
  if (off.includes('commonjs')) {
    writeFileSync(join(dir, 'bin/wes.js'), "import { main } from '../dist/cli.js';\nprocess.exitCode = await main(process.argv.slice(2));\n");
    writeFileSync(join(dir, 'bin/package.json'), '{"type":"module"}\n');
  } else {
    cpSync(join(root, 'bin'), join(dir, 'bin'), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  built.set(off.join(), dir);
  log(`built ${name} in ${Math.round(performance.now() - started)} ms`);
}

const { startDevServer } = await import(join(root, 'dist/dev-server.js'));
const server = await startDevServer({ port: 0, stepMs: 1, hashDelayMs: 0 });
const jobId = await finishedJob(server);

const sides = [
  { name: 'node -e 0', argv: ['-e', '0'], env: {} },
  ...variants.map(([name, off, env]) => ({
    name,
    bin: join(built.get(off.join()), 'bin/wes.js'),
    env: { ...env, ...(args.cold ? { WES_CODE_CACHE: '0' } : {}), WES_CONFIG_DIR: mkdtempSync(join(scratch, 'config-')) },
  })),
];
const commands = [
  { title: 'wes --version', args: ['--version'] },
  { title: 'wes jobs get ID --json', args: ['jobs', 'get', jobId, '--json'] },
];
const baseEnv = { ...process.env, WES_BASE_URL: server.url, WES_API_KEY: server.apiKey, WES_PROFILE: 'default', NO_COLOR: '1' };
const argvOf = (side, command) => side.argv ?? [side.bin, ...command.args];

const results = {};
let spread = 0; // the widest gap between callgrind runs of one command and side: the noise of its counts
for (const command of commands) {
  log(`timing ${command.title}: ${runs} runs of ${sides.length} after 2 warm-up rounds`);
  const times = Object.fromEntries(sides.map((s) => [s.name, []]));
  for (let round = 0; round < runs + 2; round++) {
    // Each round in a new order, so no variant always follows the same one.
    for (const side of rotate(sides, round)) {
      const time = await timed(process.execPath, argvOf(side, command), { ...baseEnv, ...side.env });
      if (round >= 2) times[side.name].push(time);
    }
  }
  const instructions = {};
  if (callgrindRuns > 0 && hasValgrind()) {
    log(`counting instructions of ${command.title}: ${callgrindRuns} runs of ${sides.length} under callgrind`);
    for (const side of sides) {
      const counts = [];
      for (let i = 0; i < callgrindRuns; i++) counts.push(await callgrind(argvOf(side, command), { ...baseEnv, ...side.env }));
      instructions[side.name] = median(counts);
      spread = Math.max(spread, Math.max(...counts) - Math.min(...counts));
    }
  }
  results[command.title] = { times, instructions };
  loads.push(loadavg()[0]);
}
await server.close();
process.stdout.write(report());

/** A finished job of the dev-server (one 1 KiB output), as bench's jobs-get case uses. */
async function finishedJob({ url, apiKey }) {
  const call = async (path, init = {}) => {
    const res = await fetch(new URL(path, url), { ...init, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const workflow = { 1: { class_type: 'SaveBytes', inputs: { size_bytes: 1024, content_type: 'application/octet-stream' } } };
  const { id } = await call('/api/v2/jobs', { method: 'POST', body: JSON.stringify({ workflow }) });
  for (;;) {
    const job = await call(`/api/v2/jobs/${id}`);
    if (job.status === 'succeeded' && job.outputs.every((o) => o.hash !== null)) return id;
    if (['failed', 'canceled', 'expired'].includes(job.status)) throw new Error(`job ${id} ended ${job.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs one command; resolves with its wall and CPU time (ms). */
function timed(command, argv, env) {
  const [file, fileArgs] =
    cpuClock === 'perf' ? ['perf', ['stat', '-x,', '-e', 'task-clock', '--', command, ...argv]] : cpuClock === 'time' ? ['/usr/bin/time', ['-f', '%U %S', command, ...argv]] : [command, argv];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, fileArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const err = [];
    child.stdout.resume();
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const text = Buffer.concat(err).toString();
      if (code !== 0) return reject(new Error(`${argv.join(' ')} exited ${code}: ${text.slice(-1500)}`));
      const last = text.trim().split('\n').at(-1);
      const cpuMs = cpuClock === 'perf' ? Number(last.split(',')[0]) : cpuClock === 'time' ? last.split(' ').map(Number).reduce((a, b) => a + b) * 1000 : NaN;
      resolve({ wallMs, cpuMs });
    });
  });
}

function hasValgrind() {
  return spawnSync('valgrind', ['--version']).status === 0;
}

/** Instructions of one run of node with `argv`, all threads, as callgrind counts them. */
function callgrind(argv, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...argv], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const err = [];
    child.stderr.on('data', (c) => err.push(c));
    child.on('close', (code) => {
      const text = Buffer.concat(err).toString();
      const count = /Collected : (\d+)/.exec(text);
      if (code !== 0 || !count) reject(new Error(`callgrind ${argv.join(' ')} exited ${code}: ${text.slice(-500)}`));
      else resolve(Number(count[1]));
    });
  });
}

function rotate(list, by) {
  const k = by % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function report() {
  const ms = (v) => (Number.isFinite(v) ? `${v.toFixed(1)}` : '–');
  const signed = (v, digits = 1) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)}` : '–');
  const mi = (v) => (Number.isFinite(v) ? (v / 1e6).toFixed(1) : '–');
  const lines = [];
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const nodeRow = (title) => {
    const { times, instructions } = results[title];
    return `${ms(median(times['node -e 0'].map((t) => t.wallMs)))} ms wall, ${ms(median(times['node -e 0'].map((t) => t.cpuMs)))} ms CPU, ${mi(instructions['node -e 0'])} M instructions`;
  };
  lines.push(
    `${when} UTC, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; 1-minute load ${loads.map((l) => l.toFixed(1)).join(' → ')} (start, after each command).`,
    `Medians of ${runs} interleaved runs (CPU: ${cpuClock === 'perf' ? "perf's task-clock" : cpuClock === 'time' ? 'GNU time, to 10 ms' : 'not measured'}); instructions: median of ${callgrindRuns} callgrind runs (all threads; runs of one side differ by up to ${mi(spread)} M). \`node -e 0\` in the same rounds: ${nodeRow(commands[1].title)}.`,
    '',
    '| off (alone) | what that means | `--version` wall ms | `jobs get` wall ms | `jobs get` CPU ms | `--version` M instr. | `jobs get` M instr. |',
    '|---|---|---|---|---|---|---|',
  );
  const [v, g] = commands.map((c) => results[c.title]);
  const wall = (r, name) => median(r.times[name].map((t) => t.wallMs));
  const cpu = (r, name) => median(r.times[name].map((t) => t.cpuMs));
  for (const [name, , , what] of variants) {
    if (name === 'full') {
      lines.push(`| nothing | ${args.cold ? 'the shipped build, no code cache (--cold)' : what} | ${ms(wall(v, name))} | ${ms(wall(g, name))} | ${ms(cpu(g, name))} | ${mi(v.instructions[name])} | ${mi(g.instructions[name])} |`);
      continue;
    }
    const delta = (r, f) => signed(f(r, name) - f(r, 'full'));
    const instr = (r) => signed((r.instructions[name] - r.instructions.full) / 1e6);
    lines.push(`| ${name} | ${what} | ${delta(v, wall)} | ${delta(g, wall)} | ${delta(g, cpu)} | ${instr(v)} | ${instr(g)} |`);
  }
  lines.push(`| \`node -e 0\` | the floor | ${ms(wall(v, 'node -e 0'))} | ${ms(wall(g, 'node -e 0'))} | ${ms(cpu(g, 'node -e 0'))} | ${mi(v.instructions['node -e 0'])} | ${mi(g.instructions['node -e 0'])} |`);
  return `${lines.join('\n')}\n`;
}
