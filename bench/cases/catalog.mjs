// Walking the router catalog with `wes models list --all` against its floor: `node -e 0` (timed
// in the same runs) plus the server's own time to serve the same pages (curl per page, following
// next_cursor, summing curl's time_total), at several catalog sizes so per-model cost and memory
// growth are visible.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { interleave, summary, failureNote } from '../lib/compare.mjs';
import { measure } from '../lib/measure.mjs';
import { nodeStart } from '../lib/floor.mjs';
import { ratioTarget } from '../lib/targets.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { median } from '../lib/stats.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';

const LIMIT = 100; // the largest page the router serves: fewest round trips for both sides
const TARGET_SIZE = 10_000;

/** One curl per page until has_more is false; returns summed time_total, wall and ids seen. */
async function curlWalk(curl, server) {
  let cursor = null;
  let serverMs = 0;
  let wallMs = 0;
  let pages = 0;
  let entries = 0;
  do {
    const url = new URL('/v1/models', server.url);
    url.searchParams.set('limit', String(LIMIT));
    if (cursor) url.searchParams.set('cursor', cursor);
    const result = await measure(curl, ['-sS', '--fail', '-H', `Authorization: Bearer ${server.apiKey}`, '-w', '\n%{time_total}', url.href]);
    if (result.code !== 0) return { error: `curl page ${pages + 1}: ${result.stderr.trim()}` };
    const cut = result.stdout.lastIndexOf('\n');
    const page = JSON.parse(result.stdout.slice(0, cut));
    serverMs += Number(result.stdout.slice(cut + 1)) * 1000;
    wallMs += result.wallMs;
    pages += 1;
    entries += page.data.length;
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return { serverMs, wallMs, pages, entries };
}

async function measureSize(ctx, size) {
  const server = await ctx.startServer({ catalogSize: size });
  try {
    const config = tempDir('catalog-cfg');
    const out = join(ctx.scratch, `catalog-${size}.json`);
    const { results, failed: bad } = await interleave(
      { wes: () => runWes(server, config, ['models', 'list', '--all', '--limit', String(LIMIT), '--json'], { stdout: out }), node: nodeStart },
      { warmup: 1, runs: ctx.runs(3) },
    );
    if (bad) return { error: failureNote(bad) };
    const listed = JSON.parse(readFileSync(out, 'utf8'));
    rmSync(out, { force: true });
    const uniqueIds = new Set(listed.map((entry) => entry.id)).size;
    const walks = [];
    for (let i = 0; i < ctx.runs(3) + 1; i++) {
      const walk = await curlWalk(ctx.tools.curl, server);
      if (walk.error) return { error: walk.error };
      if (i > 0) walks.push(walk);
    }
    return {
      size,
      wes: summary(results.wes),
      node: summary(results.node),
      serverMs: median(walks.map((w) => w.serverMs)),
      curlLoopMs: median(walks.map((w) => w.wallMs)),
      pages: walks[0].pages,
      curlEntries: walks[0].entries,
      wesEntries: listed.length,
      uniqueIds,
    };
  } finally {
    await ctx.closeServer(server);
  }
}

export async function run(ctx) {
  const title = `models list --all, ${TARGET_SIZE.toLocaleString('en')} models`;
  const target = ratioTarget('catalog');
  const missing = missingCommand(['models', 'list'], ['--all']) ?? (ctx.tools.curl ? null : 'not available (curl missing)');
  if (missing) return [unavailable('catalog', title, missing, target), unavailable('catalog-growth', 'catalog walk growth', missing, { report: true })];
  const rows = [];
  const series = [];
  for (const size of ctx.sizes.catalog) {
    const m = await measureSize(ctx, size);
    if (m.error) {
      rows.push(failed(`catalog-${size}`, `models list --all, ${size} models`, m.error, target));
      continue;
    }
    series.push(m);
    if (size !== TARGET_SIZE) continue;
    const complete = m.wesEntries === size && m.uniqueIds === size;
    rows.push(
      row('catalog', title, {
        wes: { value: m.wes.wallMs, unit: 'ms' },
        reference: { value: m.node.wallMs + m.serverMs, unit: 'ms', label: `node -e 0 ${m.node.wallMs.toFixed(0)} + ${m.pages} page times ${m.serverMs.toFixed(0)}` },
        target: { ...target, also: [{ text: 'every id once', pass: complete }] },
        note: `wes listed ${m.wesEntries} entries (${m.uniqueIds} unique), peak RSS ${m.wes.maxRssMb.toFixed(0)} MB; the curl loop itself took ${m.curlLoopMs.toFixed(0)} ms with process start-ups`,
        details: m,
      }),
    );
  }
  if (series.length >= 2) {
    const last = series[series.length - 1];
    rows.push(
      row('catalog-growth', `catalog walk growth ${series.map((m) => m.size).join('/')}`, {
        wes: { value: (last.wes.wallMs / last.size) * 1000, unit: 'µs/model' },
        reference: { value: (last.serverMs / last.size) * 1000, unit: 'µs/model', label: 'server' },
        target: { report: true },
        note: series.map((m) => `${m.size}: ${((m.wes.wallMs / m.size) * 1000).toFixed(1)} µs/model (server ${((m.serverMs / m.size) * 1000).toFixed(1)}), RSS ${m.wes.maxRssMb.toFixed(0)} MB`).join('; '),
        details: { series },
      }),
    );
  }
  return rows;
}
