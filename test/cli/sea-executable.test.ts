// The single executable (`npm run build:sea`, scripts/build-sea.mjs) as a user runs it, beside the
// npm build's bin/wes.js: the same output and exit codes across the three API families, a verified
// download hashed by the embedded native blake3 (or the WASM fallback), Ctrl-C and a reader that
// goes away. CI builds the file as a step of its own before the suite (.ci/run: `npm run build:sea`,
// then the suite with WES_SEA_PREBUILT=1), so that its build (about 12 s of CPU on the 2-core runner,
// README, Install) is not part of the suite's time: with WES_SEA_PREBUILT set, a file that is missing
// or built from other sources fails here and is never rebuilt. Without it (`npm ci && npm test`), the
// file is built here when it is missing or older than the sources (`build-sea.mjs --if-changed`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the build's scripts are plain JavaScript
import { executableName as nameOf, seaIsCurrent as seaCurrent } from '../../scripts/build-sea.mjs';
import { spawnWes, tempConfigDir, type RunOptions } from '../helpers/cli.js';
import { bytesWorkflow, getJson, imageWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { interruptWhen } from './jobs-env.js';

const executableName = nameOf as () => string;
/** Whether dist/sea holds the executable built from the sources as they are now (build inputs, scripts/build-inputs.mjs). */
const seaIsCurrent = seaCurrent as () => boolean;
const ROOT = resolve(import.meta.dirname, '../..');
const SEA = join(ROOT, 'dist', 'sea', executableName());
const dev = useDevServer({ stepMs: 40 });
// Runs share the tests' code cache (spawnWes: WES_CACHE_DIR, sharedCacheDir), warm after the first
// start of each build, as on a user's machine: a fresh config folder for each run started cold and
// compiled and saved every module again (about 60 ms of CPU a start, 14 starts here).
const env = (more: Record<string, string> = {}) => ({ WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey!, ...more });
// WES_CACHE_DIR '': what the executable keeps (the extracted native addon, its code cache) goes into the
// config folder, where the tests of those look for it.
const inConfig = (more: Record<string, string> = {}) => env({ WES_CACHE_DIR: '', ...more });
const sea = (args: string[], opts: RunOptions = {}) => spawnWes(args, { ...opts, program: [SEA] });
const npm = (args: string[], opts: RunOptions = {}) => spawnWes(args, opts);
const config = tempConfigDir();

beforeAll(() => {
  if (seaIsCurrent()) return;
  if (process.env.WES_SEA_PREBUILT) {
    throw new Error(`WES_SEA_PREBUILT is set, but dist/sea/${executableName()} is missing or was built from other sources than these: run \`npm run build:sea\` before the suite (.ci/run does), or unset WES_SEA_PREBUILT to build it here`);
  }
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build-sea.mjs'), '--if-changed'], { encoding: 'utf8', timeout: 280_000 });
  if (built.status !== 0) throw new Error(`npm run build:sea failed:\n${built.stderr}${built.stdout}`);
}, 300_000);
afterAll(() => config.cleanup());

describe('the single executable', () => {
  it('is built with its checksum beside it, and answers --version as the npm build does', async () => {
    const sums = readFileSync(join(ROOT, 'dist/sea/SHA256SUMS'), 'utf8');
    expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  ${executableName().replace('.', '\\.')}\\n$`));
    const [a, b] = await Promise.all([sea(['--version']), npm(['--version'])]);
    expect(a).toMatchObject({ code: 0, stdout: b.stdout, stderr: '' });
    const version = JSON.parse((await sea(['version', '--json'])).stdout);
    expect(version.build).toBe('sea');
  });

  it('answers --version before it loads anything: no code cache is read or made', async () => {
    const own = tempConfigDir();
    try {
      for (const flag of ['--version', '-V']) {
        expect(await sea([flag], { env: inConfig(), configDir: own.dir })).toMatchObject({ code: 0, stdout: (await npm(['--version'])).stdout, stderr: '' });
      }
      expect(existsSync(join(own.dir, 'code-cache'))).toBe(false);
      // A reader that has gone away: no EPIPE trace, exit 0, as the npm build (binary-process.test.ts).
      expect(await sea(['--version'], { onSpawn: (child) => child.stdout?.destroy() })).toMatchObject({ code: 0, stderr: '' });
      // An output that cannot be written: one line, exit 1, as the npm build (no trace, no bundle source).
      if (existsSync('/dev/full')) {
        const full = await spawnWes(['--version'], { program: ['/bin/sh', '-c', 'exec "$@" >/dev/full', 'sh', SEA] });
        expect(full).toMatchObject({ code: 1, stderr: 'stopped: the output cannot be written (ENOSPC: no space left on device, write)\n' });
      }
      // The command `version` starts as every command does, and makes the folder.
      expect((await sea(['version'], { env: inConfig(), configDir: own.dir })).code).toBe(0);
      expect(existsSync(join(own.dir, 'code-cache'))).toBe(true);
    } finally {
      own.cleanup();
    }
  });

  it('jobs, models and legacy: the same output and exit codes as the npm build', async () => {
    const submitted = await submitJob(dev.server, imageWorkflow({ steps: 2 }));
    const id = submitted.body.id as string;
    await waitForJob(dev.server, submitted.body.urls.self as string, ['succeeded']);
    const runs: Array<[string[], number]> = [
      [['jobs', 'get', id, '--json'], 0],
      [['jobs', 'get', '00000000-0000-4000-8000-000000000000'], 5],
      [['jobs', 'nosuch'], 2],
      [['models', 'run', 'dev/echo', '-d', '{"prompt": "a lighthouse"}'], 0],
      [['legacy', 'object-info', 'SaveImage', '--json'], 0],
      [['--help'], 0],
    ];
    for (const [args, code] of runs) {
      const [a, b] = await Promise.all([sea(args, { env: env() }), npm(args, { env: env() })]);
      // Each answer has its own request id, and signs its output URLs anew.
      const same = (text: string) => text.replace(/req_\w+/g, 'req_…').replace(/expires=\d+&sig=\w+/g, 'signed').replace(/"url_expires_at":"[^"]+"/g, '"url_expires_at":…');
      expect({ args, code: a.code, stdout: same(a.stdout), stderr: same(a.stderr) }).toEqual({ args, code, stdout: same(b.stdout), stderr: same(b.stderr) });
    }
  }, 120_000);

  it('downloads and verifies with the embedded native blake3, extracted once into the cache folder; WES_BLAKE3=wasm falls back', async () => {
    const submitted = await submitJob(dev.server, bytesWorkflow(3 * 1024 * 1024));
    const id = submitted.body.id as string;
    await waitForJob(dev.server, submitted.body.urls.self as string, ['succeeded']);
    const doctor = JSON.parse((await sea(['doctor', '--json'], { env: inConfig(), configDir: config.dir })).stdout) as Array<{ check: string; detail: string }>;
    const build = doctor.find((c) => c.check === 'build')!.detail;
    expect(build).toContain(`single executable ${SEA}`);
    const nativeFile = /blake3 native \((.+)\)$/.exec(build)?.[1];
    expect(nativeFile, build).toBe(join(config.dir, 'sea', readdirOne(join(config.dir, 'sea')), 'blake3.node'));
    expect(statSync(nativeFile!).mode & 0o077).toBe(0);
    for (const more of [{}, { WES_BLAKE3: 'wasm' }] as Array<Record<string, string>>) {
      const out = mkdtempSync(join(tmpdir(), 'wes-sea-dl-'));
      try {
        const res = await sea(['jobs', 'download', id, out], { env: inConfig(more), configDir: config.dir });
        expect(res.code, res.stderr).toBe(0);
        const job = (await getJson(dev.server, `/api/v2/jobs/${id}`)).body as { outputs: Array<{ name: string; size_bytes: number }> };
        expect(statSync(join(out, job.outputs[0]!.name)).size).toBe(3 * 1024 * 1024);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    }
  }, 60_000);

  it('starts with every module from its code cache, cli.js included: a second start writes none again', async () => {
    // Without a snapshot of its own, cli.js is in the modules' asset like every module; its cached code is made
    // under the same V8 flags as it is read (the loader sets the program's flag first), else V8
    // would reject it and it would be written again at every exit.
    const own = tempConfigDir();
    try {
      const run = () => sea(['jobs', 'get', '00000000-0000-4000-8000-000000000000'], { env: inConfig(), configDir: own.dir });
      expect((await run()).code).toBe(5);
      const cache = join(own.dir, 'code-cache', readdirOne(join(own.dir, 'code-cache')));
      const written = () => new Map(readdirSync(cache).map((name) => [name, statSync(join(cache, name)).mtimeMs]));
      const first = written();
      expect([...first.keys()]).toEqual(expect.arrayContaining(['cli.js.v8', expect.stringMatching(/^chunks-program-.*\.js\.v8$/)]));
      expect((await run()).code).toBe(5);
      expect(written()).toEqual(first);
    } finally {
      own.cleanup();
    }
  });

  it('Ctrl-C during a watch leaves the job running, says how to resume and exits 130; a reader that goes away ends it with 141', async () => {
    const long = async () => (await submitJob(dev.server, imageWorkflow({ steps: 150 }))).body.id as string; // 6 s of steps
    const id = await long();
    const interrupted = await sea(['jobs', 'watch', id, '--interval', '0.05'], { env: env(), onSpawn: interruptWhen(/[0-9a-f]{8} running/) });
    expect(interrupted.code, interrupted.stderr).toBe(130);
    expect(interrupted.stderr).toContain(`resume with: wes jobs watch ${id}`);
    const other = await long();
    const piped = await sea(['jobs', 'watch', other, '--json', '--interval', '0.05'], { env: env(), onSpawn: (child) => child.stdout?.destroy() });
    expect(piped.code, piped.stderr).toBe(141);
    expect(piped.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(piped.stderr).toContain(`job ${other} keeps running on the service`);
  }, 60_000);
});

function readdirOne(dir: string): string {
  expect(existsSync(dir)).toBe(true);
  const names = readdirSync(dir);
  expect(names).toHaveLength(1);
  return names[0]!;
}
