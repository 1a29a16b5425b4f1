// Submitting one workflow to the job API once it is read and its --set targets checked: the files
// and assets the --set inputs name put in as typed asset references (files uploaded unless held,
// deduplicated by hash), one submit under a single-use Idempotency-Key, the job recorded in the
// history. The key is sent once with its label in `metadata` (clients/jobs/keyed-submit.ts);
// when no usable answer comes back the job is looked for by that label instead of being sent again
// (the keyed send's verdict, features/keyed/verdict.ts), and what the verdict tells a person is
// submit-hints.ts's. Shared by `jobs submit`, `jobs rerun` and the MCP submit; a batch line goes
// its own way (features/batch/runner.ts) on the same send and verdict.
import type { HashSetting } from '../../util/blake3-setting.js';
import { AssetPlacer, referenceFor } from '../transfers/asset-placer.js';
import type { Clock } from '../../util/clock.js';
import type { FetchedJob, JobsClient, SubmitOptions } from '../../clients/jobs/client.js';
import { awaitJobByKey, SEARCH_PAUSES_MS } from '../../clients/jobs/keyed-submit.js';
import { isKeyReuse, sendLabelled } from '../../clients/jobs/keyed-submit.js';
import { sendKeyed } from '../keyed/verdict.js';
import { InterruptedError } from '../../errors.js';
import { interruptedSubmit, keyReused, provenAbsent, submitInDoubt } from './submit-hints.js';
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

export interface KeyedSubmit {
  /** The request without `metadata`: the labels go in as the deployment takes them. */
  request: SubmitRequest;
  /** The user's own labels (--label), beside wes's key label. */
  labels?: JobLabels;
  /** The key came from the user: a refusal as reused looks for the job an earlier use made. */
  keyGiven: boolean;
  signal?: AbortSignal;
  /** When the key went out, for the search's verdict. */
  clock: Clock;
  /** Watches the body go (postJob). */
  observeBody?: SubmitOptions['observeBody'];
}

export interface SubmitOutcome {
  job: FetchedJob;
  /**
   * `answered`: the service answered this submit. `lost-answer`: no usable answer came, and the job
   * was found by its key. `key-used-before`: the service refused the given key as already used, and
   * the job made with it was found.
   */
  how: 'answered' | 'lost-answer' | 'key-used-before';
}

/** The submit's outcome; a failure is thrown as the verdict tells it (in doubt, proven absent, a reused key, interrupted on its way). */
export async function submitKeyed(client: JobsClient, key: string, s: KeyedSubmit): Promise<SubmitOutcome> {
  try {
    const sentAt = s.clock.now();
    const verdict = await sendKeyed(() => sendLabelled(client, s.request, key, s.labels, { observeBody: s.observeBody }), {
      signal: s.signal,
      // A given key refused as used: the job an earlier use made, when the list shows one.
      searchAlso: s.keyGiven ? isKeyReuse : undefined,
      // A reused key was sent before this send: no send time to prove absence by, and no job still in the making.
      find: async (err) => awaitJobByKey(client, key, isKeyReuse(err) ? {} : { sentAt }, s.signal, isKeyReuse(err) ? [] : SEARCH_PAUSES_MS),
    });
    if (verdict.kind === 'answered') return { job: verdict.value, how: 'answered' };
    const err = verdict.error;
    // A refusal as reused, whose job the list does not show: explained without guessing why.
    if (isKeyReuse(err)) {
      if (verdict.kind === 'found') return { job: verdict.value, how: 'key-used-before' };
      throw keyReused(err, verdict.kind === 'unsent' ? undefined : verdict.search);
    }
    switch (verdict.kind) {
      case 'found':
        return { job: verdict.value, how: 'lost-answer' };
      case 'proven-absent':
        throw provenAbsent(err, key);
      case 'in-doubt':
        throw verdict.search ? submitInDoubt(err, key, verdict.search) : err;
      case 'unsent':
        throw err;
    }
  } catch (err) {
    // Stopped while the submit was on its way: the service may have made the job (said in the one form of every interruption).
    if (err instanceof InterruptedError) interruptedSubmit(err, key);
    throw err;
  }
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
