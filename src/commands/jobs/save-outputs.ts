// `jobs download` and `--download DIR`: saves every output, shows a progress line for large
// files on a terminal, and reports the saved paths (stdout: one path a line, or with --json one
// array of {name, path, bytes, hash, verified, asset_id}).
import type { Factory } from '../../factory.js';
import type { FetchedJob, JobsClient } from '../../clients/jobs/client.js';
import { downloadOutputs, type DownloadProgress, type SavedOutput } from '../../clients/jobs/download.js';
import { SHOWN_FROM_BYTES, TransferDisplay } from '../../render/transfer.js';
import type { ExistingPolicy } from '../../files/existing.js';
import { reportKept, type KeptPart } from '../../files/kept.js';
import { shellWord } from '../../render/shell-word.js';
import { sanitizeLine } from '../../render/sanitize.js';

export interface SaveReport {
  /** false inside a watch with --json: stdout belongs to the NDJSON stream there. */
  toStdout: boolean;
  existing: ExistingPolicy;
  /** `--show`: each saved picture under its path, on a terminal that can draw it. */
  show?: boolean;
}

/** Bytes, rate and time left for large downloads: redrawn on a terminal, a plain line now and then elsewhere. */
async function progressDisplay(f: Factory, job: FetchedJob): Promise<{ onProgress?: (p: DownloadProgress) => void; progress?: TransferDisplay }> {
  const sizes = job.job.outputs.map((o) => o.size_bytes ?? null);
  const large = sizes.some((s) => (s ?? 0) >= SHOWN_FROM_BYTES);
  if (f.io.quiet || f.io.json || !large) return {};
  const totalBytes = sizes.every((s) => s !== null) ? sizes.reduce<number>((a, s) => a + s!, 0) : null;
  const progress = await TransferDisplay.open(f.io, { verb: 'downloading', count: sizes.length, totalBytes });
  return { progress, onProgress: (p) => progress.update(p) };
}

export async function saveOutputs(f: Factory, client: JobsClient, job: FetchedJob, dir: string, report: SaveReport): Promise<SavedOutput[]> {
  const { io } = f;
  const display = await progressDisplay(f, job);
  let result;
  const kept: KeptPart[] = [];
  try {
    result = await downloadOutputs(client, job, {
      dir,
      onProgress: display.onProgress,
      existing: report.existing,
      warn: (line) => io.warn(line),
      onKept: (part) => kept.push(part),
    });
  } finally {
    display.progress?.stop();
    reportKept(io, kept, `wes jobs download ${job.job.id} ${shellWord(dir)}`);
  }
  if (f.signal.aborted) throw f.signal.reason;
  const { saved } = result;
  if (report.toStdout && io.json) io.printJson(saved);
  if (report.show) await (await import('../../render/pictures/show.js')).showSavedPictures(io, saved.map((s) => s.path), report.toStdout && !io.json);
  else if (report.toStdout && !io.json) for (const s of saved) io.println(s.path);
  if (!report.toStdout) for (const s of saved) io.info(`saved ${s.path}`);
  const same = saved.filter((s) => s.kept === 'same').length;
  const skipped = saved.filter((s) => s.kept === 'skip-existing').length;
  if (same) io.info(`${same} file(s) were already there with the same bytes: not downloaded again`);
  if (skipped) io.info(`${skipped} existing file(s) kept as they are (--skip-existing)`);
  const unverified = saved.filter((s) => !s.verified && !s.kept).length;
  if (unverified) io.info(`note: ${unverified} file(s) not verified by hash (the service reported none); sizes checked against the transfer`);
  const misdeclared = saved.filter((s) => s.declared_size_bytes !== undefined);
  if (misdeclared.length) {
    const first = misdeclared[0]!;
    io.info(sanitizeLine(`note: the service declared sizes that differ from the bytes it sent for ${misdeclared.length} output(s) (${first.name}: declared ${first.declared_size_bytes}, received ${first.bytes}); the files hold what the whole transfer delivered`));
  }
  const counts = `${saved.length} of ${job.job.outputs.length} output(s) and ${result.jobFile}`;
  if (!result.errors.length) {
    io.info(`✓ saved ${counts}`);
    return saved;
  }
  const failed = result.errors.length;
  io.warn(`✗ saved only ${counts}: ${failed} output${failed === 1 ? '' : 's'} could not be saved${failed > 1 ? '; the first reason follows' : ''}`);
  throw result.errors[0]!.error;
}
