// Downloading a job output (SaveBytes) with `wes jobs download` against `curl -o` of the same
// signed URL, at several sizes: wes's time against its floor (`node -e 0` + `curl -o`, timed in
// the same runs), peak RSS (flat in size), and the steady-state time per MB (the slope between
// the smallest and the largest size) against curl's.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { interleave, summary, failureNote } from '../lib/compare.mjs';
import { measure } from '../lib/measure.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { MiB, formatSize, mbPerSecond, median } from '../lib/stats.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { nodeStart } from '../lib/floor.mjs';
import { TARGETS, ratioTarget } from '../lib/targets.mjs';

// Sizes with a row of their own: 256 MiB in the quick run, 1 GiB in the full one.
const TARGET_SIZES = [256 * MiB, 1024 * MiB];

/** What a script pays for the same verified file (curl -o, then b3sum), beside wes's time. */
function verifiedByScript(m) {
  return `curl -o then b3sum --num-threads 1: ${(m.curl.wallMs + m.b3sumMs).toFixed(0)} ms (wes ${(m.wes.wallMs / (m.curl.wallMs + m.b3sumMs)).toFixed(2)}× that)`;
}

/** Steady-state ms per MB of each side: the slope between the smallest and the largest size. */
function slopes(series) {
  const [a, b] = [series[0], series[series.length - 1]];
  const mb = (b.size - a.size) / 1e6;
  return { wes: (b.wes.wallMs - a.wes.wallMs) / mb, curl: (b.curl.wallMs - a.curl.wallMs) / mb };
}

function downloadedBytes(dir) {
  return readdirSync(dir)
    .filter((name) => name !== 'job.json')
    .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

async function measureSize(ctx, server, size, config) {
  const job = await server.bytesJob(size);
  const work = tempDir('download');
  const runs = size >= 512 * MiB ? Math.min(ctx.runs(3), 3) : ctx.runs(3);
  let wrongSize = null;
  const checkMs = [];
  const { results, failed: bad } = await interleave(
    {
      wes: async (i) => {
        const dir = join(work, `wes-${i}`);
        const result = await runWes(server, config, ['jobs', 'download', job.id, dir]);
        if (result.code === 0) {
          const got = downloadedBytes(dir);
          if (got !== size) wrongSize = `wes saved ${got} bytes, expected ${size}`;
        }
        rmSync(dir, { recursive: true, force: true });
        return result;
      },
      curl: async (i) => {
        const fresh = await server.getJob(job.id); // a fresh signed URL, outside the timing
        const file = join(work, `curl-${i}.bin`);
        const result = await measure(ctx.tools.curl, ['-sS', '--fail', '-o', file, fresh.outputs[0].url]);
        // wes also checks the blake3 digest; what checking costs a curl user is reported beside.
        if (result.code === 0 && ctx.tools.b3sum) checkMs.push((await measure(ctx.tools.b3sum, ['--num-threads', '1', file])).wallMs);
        rmSync(file, { force: true });
        return result;
      },
      // The bytes alone, into /dev/null: no client, curl or wes, can have the file sooner.
      sink: async () => {
        const fresh = await server.getJob(job.id);
        return measure(ctx.tools.curl, ['-sS', '--fail', '-o', '/dev/null', fresh.outputs[0].url]);
      },
      node: nodeStart,
    },
    { warmup: 1, runs },
  );
  rmSync(work, { recursive: true, force: true });
  if (bad) return { error: failureNote(bad) };
  if (wrongSize) return { error: wrongSize };
  return { size, wes: summary(results.wes), curl: summary(results.curl), sink: summary(results.sink), node: summary(results.node), b3sumMs: checkMs.length ? median(checkMs) : null };
}

export async function run(ctx) {
  const missing = missingCommand(['jobs', 'download']);
  const sizes = ctx.sizes.download;
  const targetSizes = sizes.filter((s) => TARGET_SIZES.includes(s));
  const title = (size) => `download ${formatSize(size)} (jobs download)`;
  const { rssMb } = TARGETS.download;
  const target = (rssPass) => ({ ...ratioTarget('download'), also: [{ text: `RSS ≤ ${rssMb} MB`, pass: rssPass }] });
  const growthTitle = `download steady state ${sizes.map(formatSize).join('/')}`;
  if (missing || !ctx.tools.curl) {
    const reason = missing ?? 'not available (curl missing)';
    return [...targetSizes.map((s) => unavailable(`download-${s / MiB}m`, title(s), reason, target())), unavailable('download-growth', growthTitle, reason, ratioTarget('download-growth'))];
  }
  const server = await ctx.server();
  const config = tempDir('download-cfg');
  const rows = [];
  const series = [];
  for (const size of sizes) {
    const m = await measureSize(ctx, server, size, config);
    if (m.error) {
      rows.push(failed(`download-${size / MiB}m`, title(size), m.error, target()));
      continue;
    }
    series.push(m);
    if (!TARGET_SIZES.includes(size)) continue;
    const rssOk = Number.isFinite(m.wes.maxRssMb) ? m.wes.maxRssMb <= rssMb : undefined;
    rows.push(
      row(`download-${size / MiB}m`, title(size), {
        wes: { value: m.wes.wallMs, unit: 'ms' },
        reference: { value: m.node.wallMs + m.curl.wallMs, unit: 'ms', label: `node -e 0 ${m.node.wallMs.toFixed(0)} + curl -o ${m.curl.wallMs.toFixed(0)}` },
        target: target(rssOk),
        note: [
          `wes ${mbPerSecond(size, m.wes.wallMs).toFixed(0)} MB/s, peak RSS ${m.wes.maxRssMb.toFixed(0)} MB, CPU ${m.wes.cpuMs.toFixed(0)} ms; curl -o ${mbPerSecond(size, m.curl.wallMs).toFixed(0)} MB/s (wes ${(m.wes.wallMs / m.curl.wallMs).toFixed(2)}× its time), RSS ${m.curl.maxRssMb.toFixed(0)} MB, CPU ${m.curl.cpuMs.toFixed(0)} ms`,
          `the bytes alone (curl -o /dev/null) ${m.sink.wallMs.toFixed(0)} ms`,
          m.b3sumMs !== null ? verifiedByScript(m) : '',
        ].filter(Boolean).join('; '),
        details: m,
      }),
    );
  }
  if (series.length >= 2) {
    const slope = slopes(series);
    const perMb = series.map((m) => `${formatSize(m.size)}: wes ${m.wes.wallMs.toFixed(0)} ms, curl ${m.curl.wallMs.toFixed(0)} ms, RSS ${m.wes.maxRssMb.toFixed(0)} MB`);
    rows.push(
      row('download-growth', growthTitle, {
        wes: { value: slope.wes, unit: 'ms/MB' },
        reference: { value: slope.curl, unit: 'ms/MB', label: 'curl -o' },
        target: ratioTarget('download-growth'),
        note: `the slope between ${formatSize(series[0].size)} and ${formatSize(series[series.length - 1].size)}; ${perMb.join('; ')}`,
        details: { series, slope },
      }),
    );
  }
  return rows;
}
