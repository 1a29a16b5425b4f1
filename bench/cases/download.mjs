// Downloading a job output (SaveBytes) with `wes jobs download` against `curl -o` of the same
// signed URL, at several sizes: throughput ratio, peak RSS (flat in size), time per MB (linear).
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { interleave, summary, failureNote } from '../lib/compare.mjs';
import { measure } from '../lib/measure.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { MiB, formatSize, mbPerSecond, median } from '../lib/stats.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { nodeStart, startUpFloor } from '../lib/floor.mjs';

// Sizes with a row of their own: issue 16 names 256 MiB for the quick run and 1 GiB for the full one.
const TARGET_SIZES = [256 * MiB, 1024 * MiB];
const RSS_LIMIT_MB = 100;
/** Against `curl -o` then `b3sum`: what a script pays for the same verified file. */
const VERIFIED_MIN = 1.5;

/**
 * The best `curl -o && b3sum` ratio any node CLI could reach here: it cannot have the bytes before
 * the server has sent them (curl -o /dev/null) nor start before node has (node -e 0).
 */
function verifiedCeiling(m) {
  const best = (m.curl.wallMs + m.b3sumMs) / (m.node.wallMs + m.sink.wallMs);
  return `the bytes alone (curl -o /dev/null) take ${m.sink.wallMs.toFixed(0)} ms and b3sum ${m.b3sumMs.toFixed(0)} ms, so against curl -o && b3sum a node CLI reaches at best ${best.toFixed(2)}×`;
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
  const target = (rssPass, verifiedPass) => ({
    min: 0.8,
    also: [
      { text: `≥ ${VERIFIED_MIN}× curl -o && b3sum`, pass: verifiedPass },
      { text: `RSS ≤ ${RSS_LIMIT_MB} MB`, pass: rssPass },
    ],
  });
  if (missing || !ctx.tools.curl) {
    const reason = missing ?? 'not available (curl missing)';
    return [...targetSizes.map((s) => unavailable(`download-${s / MiB}m`, title(s), reason, target())), unavailable('download-growth', 'download growth', reason, { report: true })];
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
    const rssOk = Number.isFinite(m.wes.maxRssMb) ? m.wes.maxRssMb <= RSS_LIMIT_MB : undefined;
    const verifiedRatio = m.b3sumMs !== null ? (m.curl.wallMs + m.b3sumMs) / m.wes.wallMs : null;
    const verifiedOk = verifiedRatio !== null ? verifiedRatio >= VERIFIED_MIN : undefined;
    rows.push(
      row(`download-${size / MiB}m`, title(size), {
        wes: { value: mbPerSecond(size, m.wes.wallMs), unit: 'MB/s' },
        reference: { value: mbPerSecond(size, m.curl.wallMs), unit: 'MB/s', label: 'curl -o' },
        target: target(rssOk, verifiedOk),
        note: [
          `wes ${m.wes.wallMs.toFixed(0)} ms, peak RSS ${m.wes.maxRssMb.toFixed(0)} MB; curl ${m.curl.wallMs.toFixed(0)} ms, RSS ${m.curl.maxRssMb.toFixed(0)} MB`,
          m.b3sumMs !== null ? `curl -o then b3sum (a verified download, as wes does): ${mbPerSecond(size, m.curl.wallMs + m.b3sumMs).toFixed(0)} MB/s, wes ${verifiedRatio.toFixed(2)}× that` : '',
          m.b3sumMs !== null ? verifiedCeiling(m) : '',
          `CPU wes ${m.wes.cpuMs.toFixed(0)} ms, curl ${m.curl.cpuMs.toFixed(0)} ms`,
          startUpFloor(m.node.wallMs, m.curl.wallMs, 'throughput'),
        ].filter(Boolean).join('; '),
        details: m,
      }),
    );
  }
  if (series.length >= 2) {
    const perMb = series.map((m) => `${formatSize(m.size)}: ${(m.wes.wallMs / (m.size / 1e6)).toFixed(2)} ms/MB (curl ${(m.curl.wallMs / (m.size / 1e6)).toFixed(2)}), RSS ${m.wes.maxRssMb.toFixed(0)} MB`);
    const last = series[series.length - 1];
    rows.push(
      row('download-growth', `download growth ${series.map((m) => formatSize(m.size)).join('/')}`, {
        wes: { value: last.wes.wallMs / (last.size / 1e6), unit: 'ms/MB' },
        reference: { value: last.curl.wallMs / (last.size / 1e6), unit: 'ms/MB', label: 'curl' },
        target: { report: true },
        note: perMb.join('; '),
        details: { series },
      }),
    );
  }
  return rows;
}
