// Batches at scale: `wes jobs submit --batch FILE --concurrency 64 --results R` over 1 000 and
// 100 000 quick lines (two-node jobs that finish at once) against a dev-server with 64 slots.
// Each row gives wes's jobs/s against the server's capacity (the harness submitting and polling
// quick jobs, 64 at a time, over plain fetch, on the same server), its wall time and its peak
// RSS. Targets: ≥ 0.8× the capacity, and peak RSS under 150 MB at 100 000 lines (within 10 % of
// the 1 000-line run). The 100 000-line row runs only in `npm run bench` (never in `npm test`).
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { failureNote } from '../lib/compare.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { TARGETS, ratioTarget } from '../lib/targets.mjs';

const CONCURRENCY = 64;
const SIZES = [1_000, 100_000];
/** Jobs the harness runs to measure the server's capacity (enough to reach a steady rate). */
const CAPACITY_JOBS = 3_000;
const FINISHED = new Set(['succeeded', 'failed', 'canceled', 'expired']);

function quickJob(i, prefix = 'scale') {
  return { 1: { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: i % 0xffffff } }, 2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: `${prefix}_${i}` } } };
}

/** Quick jobs per second the server completes for a client that submits, then polls each job every 2 ms. */
async function capacity(server) {
  const started = performance.now();
  let issued = 0;
  async function lane() {
    for (let i = issued++; i < CAPACITY_JOBS; i = issued++) {
      let job = await server.request('POST', '/api/v2/jobs', { body: { workflow: quickJob(i, 'capacity') }, headers: { 'idempotency-key': `scale-capacity-${i}` } });
      while (!FINISHED.has(job.status)) {
        await sleep(2);
        job = await server.getJob(job.id);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return CAPACITY_JOBS / ((performance.now() - started) / 1000);
}

async function writeInput(path, lines) {
  const out = createWriteStream(path);
  for (let i = 0; i < lines; i++) if (!out.write(JSON.stringify(quickJob(i)) + '\n')) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/** Counts result lines and successes without holding the file. */
async function countResults(path) {
  let lines = 0;
  let succeeded = 0;
  for await (const line of createInterface({ input: createReadStream(path) })) {
    if (!line) continue;
    lines++;
    if (JSON.parse(line).status === 'succeeded') succeeded++;
  }
  return { lines, succeeded };
}

export async function run(ctx) {
  const missing = missingCommand(['jobs', 'submit'], ['--batch', '--via']);
  const rows = [];
  let smallRss = null;
  for (const lines of SIZES) {
    const title = `batch ${lines.toLocaleString('en')} quick lines, concurrency ${CONCURRENCY}`;
    const target = ratioTarget('batch-scale');
    const { rssMb, rssGrowth } = TARGETS['batch-scale'];
    if (missing) {
      rows.push(unavailable('batch-scale', title, missing, target));
      continue;
    }
    // A short retention keeps the server's own memory flat over 100 000 jobs (wes follows each for milliseconds).
    const server = await ctx.startServer({ stepMs: 0, slots: CONCURRENCY, maxQueue: 100_000, retentionMs: 120_000 });
    try {
      const serverRate = await capacity(server);
      const input = join(ctx.scratch, `scale-${lines}.jsonl`);
      const results = join(ctx.scratch, `scale-${lines}-results.jsonl`);
      await writeInput(input, lines);
      const result = await runWes(server, tempDir('batch-scale-cfg'), ['jobs', 'submit', '--batch', input, '--concurrency', String(CONCURRENCY), '--results', results], { timeoutMs: 3_600_000 });
      if (result.code !== 0) {
        rows.push(failed('batch-scale', title, failureNote({ side: 'wes', result }), target));
        continue;
      }
      const counted = await countResults(results);
      const rate = lines / (result.wallMs / 1000);
      const rss = result.maxRssMb;
      if (lines === SIZES[0]) smallRss = rss;
      const also = [];
      let versus = '';
      if (lines === 100_000 && Number.isFinite(rss)) {
        also.push({ text: `peak RSS < ${rssMb} MB`, pass: rss < rssMb });
        if (Number.isFinite(smallRss)) {
          also.push({ text: `RSS within ${Math.round((rssGrowth - 1) * 100)} % of 1 000 lines`, pass: rss <= smallRss * rssGrowth });
          versus = ` (1 000 lines: ${smallRss.toFixed(0)} MB; ratio ${(rss / smallRss).toFixed(2)})`;
        }
      }
      rows.push(
        row('batch-scale', title, {
          wes: { value: rate, unit: 'jobs/s' },
          reference: { value: serverRate, unit: 'jobs/s', label: 'server capacity' },
          target: { ...target, also },
          note: `${counted.lines} result lines, ${counted.succeeded} succeeded; wes ${(result.wallMs / 1000).toFixed(1)} s wall, CPU ${((result.cpuMs ?? NaN) / 1000).toFixed(1)} s, peak RSS ${rss?.toFixed(0)} MB${versus}`,
          details: { lines, wallMs: result.wallMs, cpuMs: result.cpuMs, maxRssMb: rss, smallRunRssMb: lines === SIZES[0] ? undefined : smallRss, capacity: serverRate, ...counted },
        }),
      );
    } finally {
      await ctx.closeServer(server);
    }
  }
  return rows;
}
