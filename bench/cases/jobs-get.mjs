// `wes jobs get ID --json` on loopback against what a shell script pays for the same answer:
// starting node plus one curl of the same URL.
import { interleave, summary, failureNote } from '../lib/compare.mjs';
import { measure } from '../lib/measure.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { NODE, missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { TARGETS, ratioTarget } from '../lib/targets.mjs';

const ID = 'jobs-get';
const TITLE = 'wes jobs get ID --json';
const TARGET = ratioTarget(ID);
const RSS_MARGIN_MB = TARGETS[ID].rssOverNodeMb;

export async function run(ctx) {
  const missing = missingCommand(['jobs', 'get']);
  if (missing) return [unavailable(ID, TITLE, missing, TARGET)];
  if (!ctx.tools.curl) return [unavailable(ID, TITLE, 'not available (curl missing)', TARGET)];
  const server = await ctx.server();
  const job = await server.bytesJob(1024);
  const url = new URL(`/api/v2/jobs/${job.id}`, server.url).href;
  const config = tempDir('jobs-get');
  const curlArgs = ['-sS', '--fail', '-H', `Authorization: Bearer ${server.apiKey}`, url];
  const { results, failed: bad } = await interleave(
    {
      wes: () => runWes(server, config, ['jobs', 'get', job.id, '--json']),
      node: () => measure(NODE, ['-e', '0']),
      curl: () => measure(ctx.tools.curl, curlArgs),
    },
    { warmup: 2, runs: ctx.runs(10) },
  );
  if (bad) return [failed(ID, TITLE, failureNote(bad), TARGET)];
  const wes = summary(results.wes);
  const node = summary(results.node);
  const curl = summary(results.curl);
  const sameJob = JSON.parse(results.wes[0].stdout).id === job.id;
  const rssOk = Number.isFinite(wes.maxRssMb) && Number.isFinite(node.maxRssMb) ? wes.maxRssMb <= node.maxRssMb + RSS_MARGIN_MB : undefined;
  return [
    row(ID, TITLE, {
      wes: { value: wes.wallMs, unit: 'ms' },
      reference: { value: node.wallMs + curl.wallMs, unit: 'ms', label: `node -e 0 ${node.wallMs.toFixed(1)} + curl ${curl.wallMs.toFixed(1)}` },
      target: { ...TARGET, also: [{ text: `RSS ≤ node + ${RSS_MARGIN_MB} MB`, pass: rssOk }] },
      note: sameJob ? `peak RSS ${wes.maxRssMb.toFixed(0)} MB (node -e 0: ${node.maxRssMb.toFixed(0)} MB); CPU ${wes.cpuMs.toFixed(0)} ms (node -e 0: ${node.cpuMs.toFixed(0)} ms)` : 'wes printed another job than asked',
      details: { wes, node, curl },
    }),
  ];
}
