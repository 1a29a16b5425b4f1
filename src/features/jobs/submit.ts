// Submitting one workflow to the job API once it is read and its --set targets checked: the files
// and assets the --set inputs name put in as typed asset references (files uploaded unless held,
// deduplicated by hash), one submit under a single-use Idempotency-Key whose label rides in
// `metadata` (a lost answer's job is found by that label, never made twice), the job recorded in
// the history. Shared by `jobs submit` and `jobs rerun`.
import type { HashSetting } from '../../util/blake3-setting.js';
import type { JobsClient } from '../../clients/jobs/client.js';
import { AssetPlacer, referenceFor } from '../transfers/asset-placer.js';
import { submitKeyed, type SubmitOutcome } from '../keyed/submit-job.js';
import type { JobLabels, SubmitRequest } from '../../protocol/jobs.js';
import { jobExtraData } from '../partner-extra-data.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { FeatureContext } from '../context.js';
import type { TransferReporter } from '../reporter.js';
import { observeUpload, REUSED_UPLOAD } from '../transfers/uploads.js';
import { recordSubmitted } from './history.js';
import { applyAssignments, type AssetInput, type InputAssignment } from './inputs.js';

export interface JobSubmit {
  /** The API-format workflow (read, and converted when it was saved in the editor's format). */
  workflow: Record<string, unknown>;
  /** The --set inputs, parsed and checked against the workflow. */
  assignments: InputAssignment[];
  /** The Idempotency-Key (submitJob's own argument) came from the user (--idempotency-key). */
  keyGiven: boolean;
  labels?: JobLabels;
  /** What the history calls it: the file's name, `-`, or `rerun ID`. */
  source: string;
}

export interface SubmittedJob extends SubmitOutcome {
  /** The line that tells how the job was found, for the outcomes that were not a plain answer. */
  recovered?: string;
}

/** What `--set N.I=@FILE` and `--set N.I=asset:ID` put in, telling what was uploaded. */
export function placeAssetsFor(client: JobsClient, reporter: TransferReporter, hashing?: HashSetting): (input: AssetInput) => Promise<unknown> {
  const placer = new AssetPlacer(client, hashing);
  return async (input) => {
    const { reference, placed } = await referenceFor(placer, input, { observeUpload: (file, size) => observeUpload(reporter, file, size) });
    if (placed) reporter.notice('info', sanitizeLine(`${placed.uploaded ? 'uploaded' : placed.reusedUpload ? REUSED_UPLOAD : 'already on the service:'} ${placed.path} → asset ${placed.asset.id}`));
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

/** Submits under the single-use `key`, handed in as a value: only the keyed submit reads it. */
export async function submitJob(f: FeatureContext, client: JobsClient, key: string, submit: JobSubmit, reporter: TransferReporter): Promise<SubmittedJob> {
  const ready = await applyAssignments(submit.workflow, submit.assignments, placeAssetsFor(client, reporter, f.hashing()));
  const request: SubmitRequest = { workflow: ready };
  const extra = jobExtraData(f.settings());
  if (extra) request.extra_data = extra;

  // A large workflow (inlined images, long prompts) takes seconds to send: shown as an upload is.
  const observeBody = (size: number) => observeUpload(reporter, submit.source, size);
  const outcome = await submitKeyed(client, key, { request, labels: submit.labels, keyGiven: submit.keyGiven, signal: f.signal, clock: f.clock, observeBody });
  const recovered = recoveredLine(outcome);
  if (recovered) reporter.notice('notice', sanitizeLine(recovered));
  recordSubmitted(f, outcome.job.job, submit.source, (line) => reporter.notice('debug', line));
  return { ...outcome, recovered };
}
