// Batches on a self-hosted engine (issue 26 item 4): `wes jobs submit --batch FILE --concurrency
// 16` over 10 000 quick lines (two-node prompts that finish at once) against the dev-server's
// engine imitation with the engine alone (`engineOnly`: the lines go in as v1 prompts and end by
// the engine's WebSocket), against the same server with the job API v2 beside it (the v2 path,
// which a batch takes wherever v2 is served). Both servers: one slot, as an engine runs one
// prompt at a time. Target: the engine path within 1.25× the v2 path's wall time, its peak RSS
// ≤ 150 MB and flat (within 10 % of a 1 000-line engine run).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { failureNote } from '../lib/compare.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { TARGETS, ratioTarget } from '../lib/targets.mjs';

const CONCURRENCY = 16;
const LINES = 10_000;
const SMALL = 1_000;
const SERVER = { deployment: 'self-hosted', stepMs: 0, slots: 1, maxQueue: 100_000, retentionMs: 120_000 };

function quickPrompt(i) {
  return { 1: { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: i % 0xffffff } }, 2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: `engine_${i}` } } };
}

async function writeInput(path, lines) {
  const out = createWriteStream(path);
  for (let i = 0; i < lines; i++) if (!out.write(JSON.stringify(quickPrompt(i)) + '\n')) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/** One batch run of `lines` lines on a fresh server; its wall time and peak RSS. */
async function batchOn(ctx, serverOptions, lines, label) {
  const server = await ctx.startServer(serverOptions);
  try {
    const input = join(ctx.scratch, `engine-${label}-${lines}.jsonl`);
    const results = join(ctx.scratch, `engine-${label}-${lines}-results.jsonl`);
    await writeInput(input, lines);
    return await runWes(server, tempDir(`batch-engine-${label}`), ['jobs', 'submit', '--batch', input, '--concurrency', String(CONCURRENCY), '--results', results], { timeoutMs: 1_800_000 });
  } finally {
    await ctx.closeServer(server);
  }
}

export async function run(ctx) {
  const title = `batch ${LINES.toLocaleString('en')} quick lines on a self-hosted engine (WebSocket) vs the v2 path, concurrency ${CONCURRENCY}`;
  const target = ratioTarget('batch-engine');
  const { rssMb, rssGrowth } = TARGETS['batch-engine'];
  const missing = missingCommand(['jobs', 'submit'], ['--batch']);
  if (missing) return [unavailable('batch-engine', title, missing, target)];
  const small = await batchOn(ctx, { ...SERVER, engineOnly: true }, SMALL, 'small');
  const engine = await batchOn(ctx, { ...SERVER, engineOnly: true }, LINES, 'engine');
  const v2 = await batchOn(ctx, SERVER, LINES, 'v2');
  for (const [side, result] of [['engine', engine], ['v2', v2], ['engine (1 000 lines)', small]]) {
    if (result.code !== 0) return [failed('batch-engine', title, `${side}: ${failureNote({ side: 'wes', result })}`, target)];
  }
  const rss = engine.maxRssMb;
  const also = Number.isFinite(rss) ? [{ text: `peak RSS ≤ ${rssMb} MB`, pass: rss <= rssMb }, { text: `RSS within ${Math.round((rssGrowth - 1) * 100)} % of 1 000 lines`, pass: Number.isFinite(small.maxRssMb) ? rss <= small.maxRssMb * rssGrowth : null }] : [];
  return [
    row('batch-engine', title, {
      wes: { value: engine.wallMs, unit: 'ms' },
      reference: { value: v2.wallMs, unit: 'ms', label: 'same batch through the job API v2' },
      target: { ...target, also },
      note: `engine ${(engine.wallMs / 1000).toFixed(1)} s (CPU ${((engine.cpuMs ?? NaN) / 1000).toFixed(1)} s, peak RSS ${rss?.toFixed(0)} MB; 1 000 lines: ${small.maxRssMb?.toFixed(0)} MB), v2 ${(v2.wallMs / 1000).toFixed(1)} s (peak RSS ${v2.maxRssMb?.toFixed(0)} MB)`,
      details: { lines: LINES, concurrency: CONCURRENCY, engine: { wallMs: engine.wallMs, cpuMs: engine.cpuMs, maxRssMb: rss }, v2: { wallMs: v2.wallMs, cpuMs: v2.cpuMs, maxRssMb: v2.maxRssMb }, smallRun: { lines: SMALL, wallMs: small.wallMs, maxRssMb: small.maxRssMb } },
    }),
  ];
}
