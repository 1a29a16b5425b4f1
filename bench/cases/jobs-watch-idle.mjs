// `wes jobs watch` on a job that makes no progress: the CPU it burns while waiting (polling and
// the event stream), as a share of one core. Start-up is taken out by running the same watch
// twice, for a short and a long deadline, and dividing the CPU difference by the time difference.
import { summary, failureNote } from '../lib/compare.mjs';
import { repeat } from '../lib/measure.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { ratioTarget } from '../lib/targets.mjs';

const SHORT_S = 2;
const TIMED_OUT = 8; // exit code of --timeout

export async function run(ctx) {
  const idleS = ctx.sizes.watchIdleS;
  const title = `jobs watch idle ${idleS} s (CPU share)`;
  const target = ratioTarget('jobs-watch-idle');
  const missing = missingCommand(['jobs', 'watch']);
  if (missing) return [unavailable('jobs-watch-idle', title, missing, target)];
  if (!ctx.tools.time) return [unavailable('jobs-watch-idle', title, 'not available (CPU time needs GNU time)', target)];
  // One step lasts ten minutes: the job stays `running` with nothing new to report.
  const server = await ctx.startServer({ stepMs: 600_000 });
  try {
    const job = await server.submitJob({
      1: { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } },
      2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'idle' } },
    });
    const config = tempDir('watch-idle-cfg');
    const watch = (seconds) => () => runWes(server, config, ['jobs', 'watch', job.id, '--timeout', String(seconds)], { timeoutMs: (seconds + 30) * 1000 });
    const runs = ctx.full ? 2 : 1;
    const short = await repeat(watch(SHORT_S), { warmup: 0, runs: runs + 1, okCodes: [TIMED_OUT] });
    if (short.failed) return [failed('jobs-watch-idle', title, failureNote({ side: 'wes', result: short.failed }), target)];
    const long = await repeat(watch(SHORT_S + idleS), { warmup: 0, runs, okCodes: [TIMED_OUT] });
    if (long.failed) return [failed('jobs-watch-idle', title, failureNote({ side: 'wes', result: long.failed }), target)];
    const s = summary(short.results);
    const l = summary(long.results);
    const share = ((l.cpuMs - s.cpuMs) / (l.wallMs - s.wallMs)) * 100;
    const polls = (await server.requestCounts())[`GET /api/v2/jobs/${job.id}`] ?? 0;
    return [
      row('jobs-watch-idle', title, {
        wes: { value: Math.max(0, share), unit: '%' },
        target,
        note: `CPU ${s.cpuMs.toFixed(0)} ms over ${(s.wallMs / 1000).toFixed(1)} s, ${l.cpuMs.toFixed(0)} ms over ${(l.wallMs / 1000).toFixed(1)} s; ${polls} job reads in all runs; peak RSS ${l.maxRssMb.toFixed(0)} MB`,
        details: { short: s, long: l, polls },
      }),
    ];
  } finally {
    await ctx.closeServer(server);
  }
}
