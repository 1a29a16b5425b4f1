// wes jobs submit <workflow|->: local checks first (JSON, API format, --set targets), then the
// files and assets named by --set (uploaded unless held, put in as typed asset references), then
// one submit under a single-use Idempotency-Key. --wait / --download continue as `jobs watch`.
// Everything after the read is submitWorkflow's, which `jobs rerun` shares.
import { basename } from 'node:path';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { readWorkflow } from '../../workflows/workflow-file.js';
import { converterFromOptions } from '../workflows/conversion.js';
import { checkFollowTargets, watchJobOptions } from './watch-job.js';
import { submitWorkflow } from './submit-workflow.js';
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
  const workflow = await readWorkflow(source, io.stdin, converterFromOptions(f, opts), { signal: f.signal, isTTY: io.stdinIsTTY, say: (line) => io.info(line) });
  return submitWorkflow(f, { workflow, source: source === '-' ? '-' : basename(source), command: ['wes', 'jobs', 'submit', source] }, opts, follow);
}
