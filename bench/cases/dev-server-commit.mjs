// The dev-server's event loop while it commits a big SaveBytes output (hashing every byte): the
// slowest answer to GET /api/v2/jobs/ID during the commit against the median answer when idle.
// Benchmarks of the client must not wait on a server that stopped answering.
import { setTimeout as sleep } from 'node:timers/promises';
import { row } from '../lib/report.mjs';
import { GiB, median } from '../lib/stats.mjs';
import { ratioTarget } from '../lib/targets.mjs';

const TARGET = ratioTarget('dev-server-commit');

async function timedGet(server, id) {
  const started = performance.now();
  const job = await server.getJob(id);
  return { ms: performance.now() - started, job };
}

export async function run(ctx) {
  const size = ctx.full ? 3 * GiB : 1 * GiB;
  const server = await ctx.startServer({});
  try {
    const idle = await server.bytesJob(1024);
    const idleMs = [];
    for (let i = 0; i < 20; i++) idleMs.push((await timedGet(server, idle.id)).ms);
    const { id } = await server.submitJob({ 1: { class_type: 'SaveBytes', inputs: { size_bytes: size, content_type: 'application/octet-stream' } } });
    const during = [];
    const started = performance.now();
    for (;;) {
      const { ms, job } = await timedGet(server, id);
      if (job.status !== 'queued') during.push(ms);
      if (['succeeded', 'failed', 'canceled'].includes(job.status)) break;
      await sleep(5);
    }
    const commitMs = performance.now() - started;
    const worst = Math.max(...during);
    return [
      row('dev-server-commit', `dev-server: GET job during a ${size / GiB} GiB SaveBytes commit (worst)`, {
        wes: { value: worst, unit: 'ms' },
        reference: { value: median(idleMs), unit: 'ms', label: 'GET when idle' },
        target: TARGET,
        note: `${during.length} answers in ${commitMs.toFixed(0)} ms of job run`,
      }),
    ];
  } finally {
    await ctx.closeServer(server);
  }
}
