// What `jobs submit` and `jobs rerun` share once the workflow is in hand (read, converted): the
// --set targets checked, the files and assets they name put in as typed asset references (files
// uploaded unless held, deduplicated by hash), one submit under a single-use Idempotency-Key whose
// label rides in `metadata` (a lost answer's job is found by that label, never made twice), the
// job recorded in the history, and with --wait / --download the job followed as `jobs watch` does.
import { randomUUID } from 'node:crypto';
import type { Factory } from '../../factory.js';
import { InterruptedError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { AssetPlacer, referenceFor } from '../../clients/jobs/assets.js';
import { submitLabel } from '../../clients/jobs/label.js';
import { findCommand, submitKeyed, type SubmitOutcome } from '../../clients/jobs/submit-keyed.js';
import type { SubmitRequest } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { uploadProgress } from '../../render/upload-progress.js';
import { applyAssignments, parseSet, type AssetInput } from './set-inputs.js';
import { followAndReport, type WatchJobOptions } from './watch-job.js';
import { checkInputNames } from './set-input-names.js';
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

/** What `--set N.I=@FILE` and `--set N.I=asset:ID` put in, saying on stderr what was uploaded. */
export function placeAssetsFor(f: Factory, client: JobsClient): (input: AssetInput) => Promise<unknown> {
  const placer = new AssetPlacer(client);
  return async (input) => {
    const { reference, placed } = await referenceFor(placer, input, { observeUpload: (file, size) => uploadProgress(f.io, file, size) });
    if (placed) f.io.info(sanitizeLine(`${placed.uploaded ? 'uploaded' : 'already on the service:'} ${placed.path} → asset ${placed.asset.id}`));
    return reference;
  };
}

/** The outcome's own line, for the outcomes that were not a plain answer. */
function recoveredLine(outcome: SubmitOutcome): string | undefined {
  const id = outcome.job.job.id;
  if (outcome.how === 'lost-answer') return `the submit's answer was lost; found its job ${id} by its Idempotency-Key (nothing was sent twice)`;
  if (outcome.how === 'key-used-before') return `this Idempotency-Key was used before; its job is ${id}`;
  return undefined;
}

/** Submits `prepared` with the --set inputs applied; follows it with --wait (the follow targets are already checked). */
export async function submitWorkflow(f: Factory, prepared: PreparedWorkflow, opts: SubmitFlags, follow: WatchJobOptions): Promise<number> {
  const { io } = f;
  const { workflow } = prepared;
  const assignments = (opts.set ?? []).map((arg) => parseSet(arg, workflow));
  await checkInputNames(f, workflow, assignments, opts.strict === true);
  const client = new JobsClient(f.http());
  const ready = await applyAssignments(workflow, assignments, placeAssetsFor(f, client));

  const key = opts.idempotencyKey ?? randomUUID();
  const request: SubmitRequest = { workflow: ready, metadata: submitLabel(key, opts.label) };
  const partnerKey = f.settings().partnerKey;
  if (partnerKey) request.extra_data = { api_key_service_org: partnerKey };

  let outcome: SubmitOutcome;
  try {
    outcome = await submitKeyed(client, { request, key, keyGiven: opts.idempotencyKey !== undefined, signal: f.signal });
  } catch (err) {
    // Stopped while the submit was on its way: the service may have made the job (said in the one form of render/error.ts).
    if (err instanceof InterruptedError) err.tell('the submit was on its way and may have made a job', findCommand(key), { idempotency_key: key });
    throw err;
  }
  const submitted = outcome.job;
  const recovered = recoveredLine(outcome);
  if (recovered) io.notice(sanitizeLine(recovered));
  recordSubmitted(f, submitted.job, prepared.source);
  // --download implies --wait (declared in options.ts).
  if (opts.wait) {
    if (!recovered) io.info(`submitted job ${submitted.job.id}`);
    if (!io.json) io.println(submitted.job.id);
    return followAndReport(f, client, submitted, follow);
  }
  if (io.json) io.printJson(submitted.job);
  else io.println(submitted.job.id);
  if (!recovered) io.info(`✓ submitted job ${submitted.job.id} (${sanitizeLine(submitted.job.status)}); follow it with: wes jobs watch ${submitted.job.id}`);
  else io.info(`follow it with: wes jobs watch ${submitted.job.id}`);
  return 0;
}
