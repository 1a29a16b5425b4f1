// wes jobs submit <workflow|->: local checks first (JSON, API format, --set targets), then the
// files named by --set uploads (deduplicated by hash), then one POST with an Idempotency-Key that
// every retry reuses. --wait / --download continue as `jobs watch`.
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Factory } from '../../factory.js';
import { ApiError, UsageError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { AssetPlacer } from '../../clients/jobs/assets.js';
import type { SubmitRequest } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { uploadProgress } from '../../render/upload-progress.js';
import { readWorkflow } from './workflow-file.js';
import { converterFromOptions } from '../workflows/conversion.js';
import { applyAssignments, parseSet } from './set-inputs.js';
import { checkInputNames } from './set-input-names.js';
import { checkFollowTargets, followAndReport, watchJobOptions } from './watch-job.js';
import { withIdempotencyKey } from '../in-doubt.js';
import { recordSubmitted } from './history.js';
import type { JobsSubmitOptions } from './options.js';

/** A batch spreads its lines over every --base-url given. */
export const takesSeveralBaseUrls = (opts: JobsSubmitOptions): boolean => opts.batch !== undefined;

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
  const key = opts.idempotencyKey ?? randomUUID();
  const workflow = await readWorkflow(source, io.stdin, converterFromOptions(f, opts), { signal: f.signal, isTTY: io.stdinIsTTY, say: (line) => io.info(line) });
  const assignments = (opts.set ?? []).map((arg) => parseSet(arg, workflow));
  await checkInputNames(f, workflow, assignments, opts.strict === true);

  const client = new JobsClient(f.http());
  const placer = new AssetPlacer(client);
  const prepared = await applyAssignments(workflow, assignments, async (path) => {
    const placed = await placer.place(path, { observeUpload: (file, size) => uploadProgress(io, file, size) });
    io.info(sanitizeLine(`${placed.uploaded ? 'uploaded' : 'already on the service:'} ${path} → asset ${placed.asset.id}`));
    return placed.asset.id;
  });

  const request: SubmitRequest = { workflow: prepared };
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
    throw withIdempotencyKey(err, key, ['wes', 'jobs', 'submit', source, ...sets], 'the submit');
  }

  recordSubmitted(f, submitted.job, source === '-' ? '-' : basename(source));
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
