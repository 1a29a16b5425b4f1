// A 500-job batch at concurrency 16 (`wes jobs submit --batch FILE.jsonl --concurrency 16`):
// jobs per second, client CPU and RSS, next to the server's own capacity, measured by the
// harness submitting and polling the same 500 jobs with 16 in flight over plain fetch.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { failureNote } from '../lib/compare.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';

const JOBS = 500;
const CONCURRENCY = 16;
const TERMINAL = new Set(['succeeded', 'failed', 'canceled', 'expired']);

function workflow(i) {
  return {
    1: { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: i % 0xffffff } },
    2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: `batch_${i}` } },
  };
}

/** The server's capacity: submit and poll JOBS jobs, CONCURRENCY at a time, from the harness. */
async function serverCapacity(server) {
  let next = 0;
  const worker = async () => {
    while (next < JOBS) {
      const i = next++;
      const job = await server.request('POST', '/api/v2/jobs', { body: { workflow: workflow(i) }, headers: { 'idempotency-key': `capacity-${i}` } });
      for (let current = job; !TERMINAL.has(current.status); await sleep(5)) current = await server.getJob(job.id);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return JOBS / ((performance.now() - started) / 1000);
}

export async function run(ctx) {
  const title = `jobs submit --batch ${JOBS} jobs, concurrency ${CONCURRENCY}`;
  const target = { report: true };
  const missing = missingCommand(['jobs', 'submit'], ['--batch', '--concurrency']);
  if (missing) return [unavailable('batch', title, missing, target)];
  const server = await ctx.startServer({ stepMs: 1, slots: CONCURRENCY, maxQueue: 1000 });
  try {
    const capacity = await serverCapacity(server);
    const config = tempDir('batch-cfg');
    const input = join(ctx.scratch, 'batch.jsonl');
    writeFileSync(input, Array.from({ length: JOBS }, (_, i) => JSON.stringify(workflow(i))).join('\n') + '\n');
    const results = join(ctx.scratch, 'batch-results.jsonl');
    const result = await runWes(server, config, ['jobs', 'submit', '--batch', input, '--concurrency', String(CONCURRENCY), '--json'], { stdout: results, timeoutMs: 600_000 });
    if (result.code !== 0) return [failed('batch', title, failureNote({ side: 'wes', result }), target)];
    const lines = readFileSync(results, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const succeeded = lines.filter((l) => l.status === 'succeeded').length;
    const rate = JOBS / (result.wallMs / 1000);
    return [
      row('batch', title, {
        wes: { value: rate, unit: 'jobs/s' },
        reference: { value: capacity, unit: 'jobs/s', label: 'server capacity' },
        target,
        note: `${lines.length} result lines, ${succeeded} succeeded; wes ${(result.wallMs / 1000).toFixed(1)} s wall, CPU ${(result.cpuMs / 1000).toFixed(1)} s, peak RSS ${result.maxRssMb?.toFixed(0)} MB`,
        details: { wallMs: result.wallMs, cpuMs: result.cpuMs, maxRssMb: result.maxRssMb, capacity, lines: lines.length, succeeded },
      }),
    ];
  } finally {
    await ctx.closeServer(server);
  }
}
