// The single executable (`npm run build:sea`, built here when missing or older than the sources)
// against the same floors as the npm build, with the npm build's bin/wes.js timed in the same
// runs: `--version` against `node -e 0`; `jobs get ID --json` against `node -e 0` + curl; `models
// run` with a 5 MB body against `node -e 0` + `curl --data-binary`; and its peak RSS against the
// npm build's. Each row's note gives the npm build's ratio from the same runs, so a row the
// executable alone meets says so. `jobs get` is timed beside four floors that are not wes
// (bench/lib/least-get.mjs): the same GET on a bare socket, through undici alone, with commander
// before it, and that built as a single executable.
//
// The rows time a copy of the executable, written as a download or `cp` writes it, not the file
// the build wrote: postject writes the 100 MB file in one piece, and the kernel then maps more of
// it into each run (likely its page cache's large folios), so the same bytes counted 68 MB of RSS
// in that file against 54 MB in any copy (`cp`, `cat >`, `curl -o`, or a copy once evicted from the
// cache), the npm build 52 MB in the same runs (bench/RESULTS.md, issue 40). The RSS row's note
// gives the built file's figure from the same runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, createReadStream, createWriteStream, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { interleave, summary, failureNote } from '../lib/compare.mjs';
import { measure } from '../lib/measure.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { NODE, tempDir, wesArgs } from '../lib/wes.mjs';
import { nodeStart } from '../lib/floor.mjs';
import { ratioTarget } from '../lib/targets.mjs';
import { bodyOf } from './models-run.mjs';
import { leastGetPrograms } from '../lib/least-get.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ratio = (a, b) => (a / b).toFixed(2);
/** The job's signed output links with their expiry and signature left out: each answer signs them anew, to the millisecond. */
const signedAsOne = (json) => json.replace(/([?&])expires=\d+&sig=[0-9a-f]+/g, '$1expires=&sig=').replace(/"url_expires_at":"[^"]*"/g, '"url_expires_at":""');

export async function run(ctx) {
  const { executableName } = await import('../../scripts/build-sea.mjs');
  const built = join(ROOT, 'dist', 'sea', executableName());
  const build = spawnSync(NODE, [join(ROOT, 'scripts/build-sea.mjs'), '--if-changed'], { encoding: 'utf8' });
  const ids = ['sea-version', 'sea-jobs-get', 'sea-rss', 'sea-models-run'];
  if (build.status !== 0 || !existsSync(built)) return ids.map((id) => unavailable(id, id, `not available (npm run build:sea failed: ${build.stderr.trim().split('\n').at(-1)})`, ratioTarget(id)));
  if (!ctx.tools.curl) return ids.map((id) => unavailable(id, id, 'not available (curl missing)', ratioTarget(id)));
  const sea = await installedCopy(ctx, built);
  return [...(await startUp(ctx, sea, built)), ...(await modelsRun(ctx, sea))];
}

/** The executable as a user installs it: copied in 64 KiB writes, as a download writes it. */
async function installedCopy(ctx, built) {
  const copy = join(ctx.scratch, 'wes-installed');
  await pipeline(createReadStream(built), createWriteStream(copy));
  chmodSync(copy, 0o755);
  return copy;
}

async function startUp(ctx, sea, built) {
  const server = await ctx.server();
  const job = await server.bytesJob(1024);
  const config = tempDir('sea-jobs-get');
  const env = server.wesEnv(config);
  const get = ['jobs', 'get', job.id, '--json'];
  const jobUrl = new URL(`/api/v2/jobs/${job.id}`, server.url).href;
  // The floors are context for the rows, not rows wes must meet: one that cannot be built is reported, and the rest still runs.
  const least = await leastGetPrograms(tempDir('sea-least-get')).catch((err) => ({ error: err instanceof Error ? err.message : String(err) }));
  const floors = least.error
    ? {}
    : {
        leastUndici: () => measure(NODE, [...least.undici, jobUrl], { env }),
        leastSocket: () => measure(NODE, [...least.socket, jobUrl], { env }),
        leastCommander: () => measure(NODE, [...least.commander, ...get], { env }),
        leastExecutable: () => measure(least.executable, get, { env }),
      };
  const { results, failed: bad } = await interleave(
    {
      seaVersion: () => measure(sea, ['--version'], { env }),
      npmVersion: () => measure(NODE, wesArgs('--version'), { env }),
      sea: () => measure(sea, get, { env }),
      seaBuilt: () => measure(built, get, { env }),
      npm: () => measure(NODE, wesArgs(...get), { env }),
      node: nodeStart,
      curl: () => measure(ctx.tools.curl, ['-sS', '--fail', '-H', `Authorization: Bearer ${server.apiKey}`, jobUrl]),
      ...floors,
    },
    { warmup: 2, runs: ctx.runs(10) },
  );
  if (bad) return [...['sea-version', 'sea-jobs-get', 'sea-rss'].map((id) => failed(id, id, failureNote(bad), ratioTarget(id))), ...LEAST_GET.map(([id, title]) => failed(id, title, failureNote(bad), { report: true }))];
  const s = Object.fromEntries(Object.entries(results).map(([side, list]) => [side, summary(list)]));
  const floor = s.node.wallMs + s.curl.wallMs;
  const floorReference = { value: floor, unit: 'ms', label: `node -e 0 ${s.node.wallMs.toFixed(1)} + curl ${s.curl.wallMs.toFixed(1)}` };
  const sameJob = JSON.parse(results.sea[0].stdout).id === job.id && signedAsOne(results.sea[0].stdout) === signedAsOne(results.npm[0].stdout);
  return [
    row('sea-version', 'executable: wes --version', {
      wes: { value: s.seaVersion.wallMs, unit: 'ms' },
      reference: { value: s.node.wallMs, unit: 'ms', label: 'node -e 0' },
      target: ratioTarget('sea-version'),
      note: `npm build ${ratio(s.npmVersion.wallMs, s.node.wallMs)}× in the same runs; CPU ${s.seaVersion.cpuMs.toFixed(0)} ms (node -e 0: ${s.node.cpuMs.toFixed(0)} ms)`,
      details: s,
    }),
    row('sea-jobs-get', 'executable: wes jobs get ID --json', {
      wes: { value: s.sea.wallMs, unit: 'ms' },
      reference: floorReference,
      target: { ...ratioTarget('sea-jobs-get'), also: [{ text: 'same output as the npm build', pass: sameJob }] },
      note: `npm build ${ratio(s.npm.wallMs, floor)}× in the same runs; ${least.error ? 'the floors could not be built' : `the same GET through undici alone ${ratio(s.leastUndici.wallMs, floor)}×, with commander before it ${ratio(s.leastCommander.wallMs, floor)}×, and that as a single executable ${ratio(s.leastExecutable.wallMs, floor)}×`}; CPU ${s.sea.cpuMs.toFixed(0)} ms (npm build ${s.npm.cpuMs.toFixed(0)} ms, node -e 0 ${s.node.cpuMs.toFixed(0)} ms)`,
      details: s,
    }),
    ...LEAST_GET.map(([id, title, side]) =>
      least.error ? unavailable(id, title, `not available (the floor could not be built: ${least.error.split('\n')[0]})`, { report: true }) : row(id, title, {
        wes: { value: s[side].wallMs, unit: 'ms' },
        reference: floorReference,
        target: { report: true },
        note: `not wes: a floor under the executable's jobs get row (bench/clients/least-get/); CPU ${s[side].cpuMs.toFixed(0)} ms, peak RSS ${s[side].maxRssMb.toFixed(0)} MB`,
        details: s[side],
      }),
    ),
    row('sea-rss', 'executable: peak RSS of jobs get', {
      wes: { value: s.sea.maxRssMb, unit: 'MB' },
      reference: { value: s.npm.maxRssMb, unit: 'MB', label: 'the npm build' },
      target: ratioTarget('sea-rss'),
      note: `node -e 0: ${s.node.maxRssMb.toFixed(0)} MB; the file the build wrote, run where it lies: ${s.seaBuilt.maxRssMb.toFixed(0)} MB`,
      details: s,
    }),
  ];
}

/**
 * The floors under `jobs get` (bench/lib/least-get.mjs), timed in the executable's runs: [row id,
 * title, side]. What any node program pays for the GET, and what undici adds to it before wes does
 * anything of its own (bench/RESULTS.md, issue 40, seventh round).
 */
const LEAST_GET = [
  ['least-get-executable', 'floor: commander and undici alone as a single executable', 'leastExecutable'],
  ['least-get-commander', 'floor: commander, then the same GET through undici alone', 'leastCommander'],
  ['least-get-undici', 'floor: the same GET through undici alone (node + Client, code-cached)', 'leastUndici'],
  ['least-get-socket', 'floor: the same GET on a bare node socket', 'leastSocket'],
];

async function modelsRun(ctx, sea) {
  const title = 'executable: models run dev/echo, 5 MB body';
  const server = await ctx.server();
  const config = tempDir('sea-models-run-cfg');
  const env = server.wesEnv(config);
  const input = join(ctx.scratch, 'sea-echo-input.json');
  writeFileSync(input, bodyOf(5 * 1000 * 1000));
  const sent = readFileSync(input);
  const work = tempDir('sea-models-run');
  let mismatch = null;
  const checked = (side, out) => async (result) => {
    if (result.code === 0 && !readFileSync(out).equals(sent)) mismatch ??= `${side} output differs from the input`;
    rmSync(out, { force: true });
    return result;
  };
  const args = (out) => ['models', 'run', 'dev/echo', '--input', input, '--output', out];
  const { results, failed: bad } = await interleave(
    {
      sea: (i) => measure(sea, args(join(work, `sea-${i}.json`)), { env }).then(checked('executable', join(work, `sea-${i}.json`))),
      npm: (i) => measure(NODE, wesArgs(...args(join(work, `npm-${i}.json`))), { env }).then(checked('npm build', join(work, `npm-${i}.json`))),
      curl: (i) =>
        measure(ctx.tools.curl, ['-sS', '--fail', '-H', 'Expect:', '-H', `Authorization: Bearer ${server.apiKey}`, '-H', 'Content-Type: application/json', '--data-binary', `@${input}`, '-o', join(work, `curl-${i}.json`), new URL('/v1/models/dev/echo', server.url).href]).then(
          checked('curl', join(work, `curl-${i}.json`)),
        ),
      node: nodeStart,
    },
    { warmup: 1, runs: ctx.runs(5) },
  );
  rmSync(work, { recursive: true, force: true });
  if (bad) return [failed('sea-models-run', title, failureNote(bad), ratioTarget('sea-models-run'))];
  const s = Object.fromEntries(Object.entries(results).map(([side, list]) => [side, summary(list)]));
  const floor = s.node.wallMs + s.curl.wallMs;
  return [
    row('sea-models-run', title, {
      wes: { value: s.sea.wallMs, unit: 'ms' },
      reference: { value: floor, unit: 'ms', label: `node -e 0 ${s.node.wallMs.toFixed(0)} + curl ${s.curl.wallMs.toFixed(0)}` },
      target: { ...ratioTarget('sea-models-run'), also: [{ text: 'bytes out = bytes in', pass: mismatch === null }] },
      note: mismatch ?? `npm build ${ratio(s.npm.wallMs, floor)}× in the same runs; peak RSS ${s.sea.maxRssMb.toFixed(0)} MB (npm build ${s.npm.maxRssMb.toFixed(0)} MB)`,
      details: s,
    }),
  ];
}
