// wes jobs submit <workflow|->: local checks first (JSON, API format, --set targets), then the
// files and assets named by --set (uploaded unless held, deduplicated by hash, put in as typed
// asset references), then one submit under a single-use Idempotency-Key (submit-workflow.ts).
// --wait / --download continue as `jobs watch`.
import { basename } from 'node:path';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { AssetPlacer, referenceFor } from '../../clients/jobs/assets.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { uploadProgress } from '../../render/upload-progress.js';
import { readWorkflow } from './workflow-file.js';
import { converterFromOptions } from '../workflows/conversion.js';
import { applyAssignments, parseSet, type AssetInput } from './set-inputs.js';
import { checkFollowTargets, watchJobOptions } from './watch-job.js';
import { submitWorkflow } from './submit-workflow.js';
import type { JobsSubmitOptions } from './options.js';

/** A batch spreads its lines over every --base-url given. */
export const takesSeveralBaseUrls = (opts: JobsSubmitOptions): boolean => opts.batch !== undefined;

/** What `--set N.I=@FILE` and `--set N.I=asset:ID` put in, saying on stderr what was uploaded. */
export function placeAssetsFor(f: Factory, client: JobsClient): (input: AssetInput) => Promise<unknown> {
  const placer = new AssetPlacer(client);
  return async (input) => {
    const { reference, placed } = await referenceFor(placer, input, { observeUpload: (file, size) => uploadProgress(f.io, file, size) });
    if (placed) f.io.info(sanitizeLine(`${placed.uploaded ? 'uploaded' : 'already on the service:'} ${placed.path} → asset ${placed.asset.id}`));
    return reference;
  };
}

export async function run(f: Factory, args: string[], opts: JobsSubmitOptions): Promise<number> {
  const source = args[0];
  if (opts.batch !== undefined) {
    if (source !== undefined) throw new UsageError('give either a workflow file or --batch FILE.jsonl, not both');
    return (await import('./batch.js')).run(f, opts.batch, opts);
  }
  const { io } = f;
  if (source === undefined) throw new UsageError('name the workflow file to submit (- reads standard input), or give --batch FILE.jsonl');
  const follow = watchJobOptions(opts);
  await checkFollowTargets(follow);
  const workflow = await readWorkflow(source, io.stdin, converterFromOptions(f, opts), { signal: f.signal, isTTY: io.stdinIsTTY, say: (line) => io.info(line) });
  const assignments = (opts.set ?? []).map((arg) => parseSet(arg, workflow));
  const client = new JobsClient(f.http());
  const prepared = await applyAssignments(workflow, assignments, placeAssetsFor(f, client));
  // --download implies --wait (declared in options.ts).
  return submitWorkflow(f, client, prepared, {
    key: opts.idempotencyKey,
    label: opts.label,
    wait: opts.wait === true,
    follow,
    source: source === '-' ? '-' : basename(source),
  });
}
