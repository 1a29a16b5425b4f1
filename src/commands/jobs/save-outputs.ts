// `jobs download` and `--download DIR`: every output saved (src/features/transfers/job-outputs.ts,
// a progress line for large files), then the saved paths reported (stdout: one path a line, or
// with --json one array of {name, path, bytes, hash, verified, asset_id}).
import type { Factory } from '../../factory.js';
import type { FetchedJob, JobsClient } from '../../clients/jobs/client.js';
import type { SavedOutput } from '../../clients/jobs/download.js';
import { downloadJobOutputs } from '../../features/transfers/job-outputs.js';
import type { ExistingPolicy } from '../../files/existing.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { shellWord } from '../../util/shell-word.js';
import { FileExistsError } from '../../files/safe-file.js';
import { transferReporterOn } from '../reporters.js';

export interface SaveReport {
  /** false inside a watch with --json: stdout belongs to the NDJSON stream there. */
  toStdout: boolean;
  existing: ExistingPolicy;
  /** `--show`: each saved picture under its path, on a terminal that can draw it. */
  show?: boolean;
}

export async function saveOutputs(f: Factory, client: JobsClient, job: FetchedJob, dir: string, report: SaveReport): Promise<SavedOutput[]> {
  try {
    return await saveAndReport(f, client, job, dir, report);
  } catch (err) {
    if (err instanceof FileExistsError) err.hint = conflictHint(job.job.id, dir);
    throw err;
  }
}

/**
 * A file in the way is settled by downloading the same job again with a policy, never by
 * submitting it again (`--clobber` added to a `submit --download` would run and pay for a new job).
 */
function conflictHint(id: string, dir: string): string {
  return `the job is kept on the service: to replace the files there run \`wes jobs download ${id} ${shellWord(dir)} --clobber\` (--skip-existing keeps them); submitting again would run the job again`;
}

async function saveAndReport(f: Factory, client: JobsClient, job: FetchedJob, dir: string, report: SaveReport): Promise<SavedOutput[]> {
  const { io } = f;
  const result = await downloadJobOutputs(client, job, dir, report.existing, transferReporterOn(io), f);
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
