// `npm run bench`: wes against the tools a user would otherwise use, on this machine, in one
// run. Prints a table (case, wes median, reference median, ratio, target, result): a missing
// tool or command makes its case 'not available', an error makes it 'error'. It exits 0, unless
// `--check` is given and a row missed its target (bench/lib/targets.mjs) or could not be measured.
import { cpus, totalmem, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseOptions } from './lib/options.mjs';
import { setupTools } from './lib/setup.mjs';
import { removeScratch, useGnuTime } from './lib/measure.mjs';
import { startServer } from './lib/server.mjs';
import { checkRows, failed, markdownTable, printTable, writeJson } from './lib/report.mjs';
import { writeFileSync } from 'node:fs';
import { MiB } from './lib/stats.mjs';
import { profileWesInto, removeTempDirs } from './lib/wes.mjs';

const CASES = ['startup', 'jobs-get', 'download', 'blake3', 'upload', 'catalog', 'models-run', 'legacy-watch', 'jobs-watch-idle', 'batch', 'dev-server-commit', 'batch-scale', 'batch-engine', 'sea'];

const options = parseOptions(process.argv.slice(2));
const log = (line) => process.stderr.write(`${line}\n`);
const startedAt = new Date();
if (options.cpuProf) profileWesInto(options.cpuProf);

const { tools, versions } = setupTools({ allowInstall: options.setup, log });
useGnuTime(tools.time);
if (!tools.time) log('bench: GNU time missing: peak RSS and CPU time are not measured');

const scratch = mkdtempSync(join(tmpdir(), 'wes-bench-'));
const servers = [];
let mainServer = null;

const ctx = {
  options,
  tools,
  log,
  scratch,
  full: options.full,
  /** Timed runs: --runs N, else the case's default (doubled in --full). */
  runs: (quickDefault) => options.runs ?? (options.full ? quickDefault * 2 : quickDefault),
  /** The shared dev-server (cloud deployment, fast steps), started on first use. */
  async server() {
    mainServer ??= await ctx.startServer({});
    return mainServer;
  },
  /** A dedicated dev-server with other options (catalog size, step time); closed at the end. */
  async startServer(serverOptions) {
    const server = await startServer(serverOptions);
    servers.push(server);
    return server;
  },
  async closeServer(server) {
    servers.splice(servers.indexOf(server), 1);
    await server.close();
  },
  sizes: options.full
    ? { download: [64 * MiB, 256 * MiB, 1024 * MiB], blake3: 1024 * MiB, candidates: 256 * MiB, upload: 256 * MiB, catalog: [2_500, 5_000, 10_000], watchIdleS: 30 }
    : { download: [64 * MiB, 256 * MiB], blake3: 256 * MiB, candidates: 64 * MiB, upload: 256 * MiB, catalog: [2_500, 10_000], watchIdleS: 10 },
};

const rows = [];
for (const name of CASES) {
  if (options.only.length && !options.only.some((word) => name.includes(word))) continue;
  const begun = Date.now();
  log(`bench: ${name} ...`);
  try {
    const module = await import(`./cases/${name}.mjs`);
    rows.push(...(await module.run(ctx)));
  } catch (err) {
    rows.push(failed(name, name, `harness error: ${err?.stack?.split('\n').slice(0, 3).join(' ') ?? err}`));
  }
  log(`bench: ${name} done in ${((Date.now() - begun) / 1000).toFixed(1)} s`);
}

await Promise.allSettled(servers.map((s) => s.close()));
rmSync(scratch, { recursive: true, force: true });
removeTempDirs();
removeScratch();

const machine = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  memory_gib: Number((totalmem() / 1024 ** 3).toFixed(1)),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};
const elapsedS = (Date.now() - startedAt.getTime()) / 1000;
process.stdout.write(`\nwes bench (${options.full ? 'full' : 'quick'}) ${startedAt.toISOString()}  ${machine.nproc} cpu, ${machine.memory_gib} GiB, node ${machine.node}, ${elapsedS.toFixed(0)} s\n\n`);
printTable(rows);
if (options.json) {
  writeJson(options.json, { date: startedAt.toISOString(), mode: options.full ? 'full' : 'quick', elapsed_s: elapsedS, machine, tools: versions, rows });
  log(`bench: wrote ${options.json}`);
}
if (options.markdown) {
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.title}: ${r.note}`);
  const tools = Object.entries(versions).map(([tool, version]) => `${tool}: ${version ?? 'missing'}`).join('; ');
  writeFileSync(
    options.markdown,
    [
      `Machine: ${machine.nproc} CPUs (${machine.cpu}), ${machine.memory_gib} GiB memory, node ${machine.node}, ${machine.platform}. Tools: ${tools}.`,
      `Date: ${startedAt.toISOString()}; mode ${options.full ? 'full' : 'quick'}; the run took ${elapsedS.toFixed(0)} s.`,
      '',
      markdownTable(rows),
      '',
      ...notes,
      '',
    ].join('\n'),
  );
  log(`bench: wrote ${options.markdown}`);
}
process.exitCode = 0;
if (options.check) {
  const { missed, unchecked } = checkRows(rows);
  for (const r of missed) log(`bench --check: MISSED ${r.title}: ${r.ratio !== null ? `${r.ratio.toFixed(2)}× ` : ''}against ${r.target.text}`);
  for (const r of unchecked) log(`bench --check: NOT MEASURED ${r.title}: ${r.note}`);
  if (missed.length + unchecked.length > 0) process.exitCode = 1;
  else log(`bench --check: all ${rows.filter((r) => r.pass !== null).length} rows with a target meet it`);
}
