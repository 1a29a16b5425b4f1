// What `jobs submit` and `jobs rerun` share once the workflow is in hand (read, converted): the
// --set targets checked, the files they name uploaded (deduplicated by hash), one POST with an
// Idempotency-Key that every retry reuses, the job recorded in the history, and with --wait /
// --download the job followed as `jobs watch` does.
import { randomUUID } from 'node:crypto';
import type { Factory } from '../../factory.js';
import { ApiError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { AssetPlacer } from '../../clients/jobs/assets.js';
import type { SubmitRequest } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { uploadProgress } from '../../render/upload-progress.js';
import { applyAssignments, parseSet } from './set-inputs.js';
import { followAndReport, type WatchJobOptions } from './watch-job.js';
import { withIdempotencyKey } from '../in-doubt.js';
import { recordSubmitted } from './history.js';
import type { SubmitFlags } from './options.js';

/** A workflow ready to send, and what to call it. */
export interface PreparedWorkflow {
  /** The API-format workflow (read, and converted when it was saved in the editor's format). */
  workflow: Record<string, unknown>;
  /** What the history calls it: the file's name, `-`, or `rerun ID`. */
  source: string;
  /** The command that sent it, without its --set flags (repeated in an in-doubt message). */
  command: string[];
}

/** Submits `prepared` with the --set inputs applied; follows it with --wait (the follow targets are already checked). */
export async function submitWorkflow(f: Factory, prepared: PreparedWorkflow, opts: SubmitFlags, follow: WatchJobOptions): Promise<number> {
  const { io } = f;
  const { workflow } = prepared;
  const key = opts.idempotencyKey ?? randomUUID();
  const assignments = (opts.set ?? []).map((arg) => parseSet(arg, workflow));

  const client = new JobsClient(f.http());
  const placer = new AssetPlacer(client);
  const ready = await applyAssignments(workflow, assignments, async (path) => {
    const placed = await placer.place(path, { observeUpload: (file, size) => uploadProgress(io, file, size) });
    io.info(sanitizeLine(`${placed.uploaded ? 'uploaded' : 'already on the service:'} ${path} → asset ${placed.asset.id}`));
    return placed.asset.id;
  });

  const request: SubmitRequest = { workflow: ready };
  const partnerKey = f.settings().partnerKey;
  if (partnerKey) request.extra_data = { api_key_service_org: partnerKey };

  let submitted;
  try {
    submitted = await client.submit(request, key);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'idempotency_key_reuse') {
      err.hint = `the Idempotency-Key ${key} was already used with a different body: an earlier attempt may have created the job. Check with \`wes jobs get\`, or submit again with a new --idempotency-key`;
    }
    const sets = (opts.set ?? []).flatMap((s) => ['--set', s]);
    throw withIdempotencyKey(err, key, [...prepared.command, ...sets], 'the submit');
  }

  recordSubmitted(f, submitted.job, prepared.source);
  // --download implies --wait (declared in options.ts).
  if (opts.wait) {
    io.info(`submitted job ${submitted.job.id}`);
    if (!io.json) io.println(submitted.job.id);
    return followAndReport(f, client, submitted, follow);
  }
  if (io.json) io.printJson(submitted.job);
  else io.println(submitted.job.id);
  io.info(`✓ submitted job ${submitted.job.id} (${sanitizeLine(submitted.job.status)}); follow it with: wes jobs watch ${submitted.job.id}`);
  return 0;
}
