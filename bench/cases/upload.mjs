// Uploading an asset with `wes assets upload` (hash, from-hash, upload only when the blob is
// missing) against its floor, `node -e 0` + `curl -F` multipart of the same bytes (timed in the
// same runs); then the same file again, which must be answered by from-hash without the file
// being sent (counted by the dev-server).
import { interleave, summary, failureNote } from '../lib/compare.mjs';
import { randomFile, stampFile } from '../lib/files.mjs';
import { measure } from '../lib/measure.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { formatSize, mbPerSecond } from '../lib/stats.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { nodeStart } from '../lib/floor.mjs';
import { ratioTarget } from '../lib/targets.mjs';

const UPLOAD = 'POST /api/v2/assets';
const FROM_HASH = 'POST /api/v2/assets/from-hash';

export async function run(ctx) {
  const size = ctx.sizes.upload;
  const title = `upload ${formatSize(size)} (assets upload)`;
  const dedupeTitle = `upload ${formatSize(size)} again (from-hash)`;
  const target = ratioTarget('upload');
  const dedupeTarget = { report: true, also: [{ text: '0 file bytes sent' }] };
  const missing = missingCommand(['assets', 'upload']) ?? (ctx.tools.curl ? null : 'not available (curl missing)');
  if (missing) return [unavailable('upload', title, missing, target), unavailable('upload-dedupe', dedupeTitle, missing, dedupeTarget)];

  const server = await ctx.server();
  const config = tempDir('upload-cfg');
  const file = randomFile(ctx.scratch, `upload-${size}.bin`, size);
  let stamp = Date.now();
  const uploadsSent = [];
  const fromHashAsked = [];
  const counts = async () => {
    const all = await server.requestCounts();
    return { upload: all[UPLOAD] ?? 0, fromHash: all[FROM_HASH] ?? 0 };
  };
  const curlArgs = [
    '-sS', '--fail', '-o', '/dev/null', '-H', 'Expect:',
    '-H', `Authorization: Bearer ${server.apiKey}`,
    '-F', `file=@${file};type=application/octet-stream`, '-F', 'content_type=application/octet-stream', '-F', 'file_path=bench/upload.bin',
    new URL('/api/v2/assets', server.url).href,
  ];
  const { results, failed: bad } = await interleave(
    {
      // New bytes each time, so the first upload really sends the file.
      wes: () => {
        stampFile(file, ++stamp);
        return runWes(server, config, ['assets', 'upload', file, '--json']);
      },
      dedupe: async () => {
        const before = await counts();
        const result = await runWes(server, config, ['assets', 'upload', file, '--json']);
        const after = await counts();
        uploadsSent.push(after.upload - before.upload);
        fromHashAsked.push(after.fromHash - before.fromHash);
        return result;
      },
      curl: () => {
        stampFile(file, ++stamp);
        return measure(ctx.tools.curl, curlArgs);
      },
      node: nodeStart,
    },
    { warmup: 1, runs: ctx.runs(3) },
  );
  if (bad) return [failed('upload', title, failureNote(bad), target), failed('upload-dedupe', dedupeTitle, failureNote(bad), dedupeTarget)];
  const wes = summary(results.wes);
  const dedupe = summary(results.dedupe);
  const curl = summary(results.curl);
  const node = summary(results.node);
  const noBytes = uploadsSent.every((n) => n === 0) && fromHashAsked.every((n) => n >= 1);
  return [
    row('upload', title, {
      wes: { value: wes.wallMs, unit: 'ms' },
      reference: { value: node.wallMs + curl.wallMs, unit: 'ms', label: `node -e 0 ${node.wallMs.toFixed(0)} + curl -F ${curl.wallMs.toFixed(0)}` },
      target,
      note: `wes ${mbPerSecond(size, wes.wallMs).toFixed(0)} MB/s (hash + from-hash + upload), peak RSS ${wes.maxRssMb.toFixed(0)} MB, CPU ${wes.cpuMs.toFixed(0)} ms; curl -F ${mbPerSecond(size, curl.wallMs).toFixed(0)} MB/s, CPU ${curl.cpuMs.toFixed(0)} ms`,
      details: { wes, curl, node },
    }),
    row('upload-dedupe', dedupeTitle, {
      wes: { value: dedupe.wallMs, unit: 'ms' },
      reference: { value: curl.wallMs, unit: 'ms', label: 'curl -F upload' },
      target: { ...dedupeTarget, also: [{ text: '0 file bytes sent', pass: noBytes }] },
      note: `upload requests per second run: [${uploadsSent.join(', ')}], from-hash requests: [${fromHashAsked.join(', ')}]${noBytes ? ' (no file bytes sent)' : ' (FILE SENT AGAIN)'}`,
      details: { dedupe, uploadsSent, fromHashAsked },
    }),
  ];
}
