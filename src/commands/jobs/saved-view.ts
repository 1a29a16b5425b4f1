// The outputs a job's download saved (`jobs download`, `--download DIR`; the saving is
// src/features/transfers/job-outputs.ts), as a command shows them: stdout one path a line, or with
// --json one array of {name, path, bytes, hash, verified, asset_id}; on stderr what was kept, what
// could not be verified, and the count. An output that could not be saved ends the command with
// the first reason.
import type { DownloadResult } from '../../clients/jobs/download.js';
import type { Job } from '../../protocol/jobs.js';
import type { IOStreams } from '../../render/io.js';
import { sanitizeLine } from '../../util/sanitize.js';

export interface SaveReport {
  /** false inside a watch with --json: stdout belongs to the NDJSON stream there. */
  toStdout: boolean;
  /** `--show`: each saved picture under its path, on a terminal that can draw it. */
  show?: boolean;
}

export async function showSaved(io: IOStreams, job: Job, result: DownloadResult, report: SaveReport): Promise<void> {
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
  const counts = `${saved.length} of ${job.outputs.length} output(s) and ${result.jobFile}`;
  if (!result.errors.length) {
    io.info(`✓ saved ${counts}`);
    return;
  }
  const failed = result.errors.length;
  io.warn(`✗ saved only ${counts}: ${failed} output${failed === 1 ? '' : 's'} could not be saved${failed > 1 ? '; the first reason follows' : ''}`);
  throw result.errors[0]!.error;
}
