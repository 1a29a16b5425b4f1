// wes jobs rerun <id> [--set ...] [--wait ...]: the workflow behind a job submitted again as a new
// job, through the same path as `jobs submit` (--set, uploads, a new Idempotency-Key, the history,
// --wait / --download). A workflow the service holds in the editor's `save` format is converted
// to the API format first, as `jobs submit --convert` does.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import type { JobWorkflowResponse } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { convertForCommand } from '../workflows/conversion.js';
import { isUiFormat } from '../../workflows/workflow-file.js';
import { checkFollowTargets, watchJobOptions } from './watch-job.js';
import { submitWorkflow } from './submit-workflow.js';
import { readByRef } from './read-job.js';
import type { JobsRerunOptions } from './rerun-options.js';

function unusable(id: string, why: string): WesError {
  return new WesError(sanitizeLine(`the workflow of job ${id} cannot be submitted again: ${why}`), { exitCode: ExitCode.ERROR, code: 'bad_response', origin: 'jobs' });
}

/** The API-format workflow to submit: as the service has it (`api`), or converted (`save`). */
async function apiWorkflow(f: Factory, id: string, answer: JobWorkflowResponse, opts: JobsRerunOptions): Promise<Record<string, unknown>> {
  const { workflow, format } = answer;
  if (format === 'api') {
    if (isUiFormat(workflow)) throw unusable(id, 'the service calls it `api` format, but it has the editor\'s "nodes" and "links"');
    return workflow;
  }
  if (format === 'save') {
    if (!isUiFormat(workflow)) throw unusable(id, 'the service calls it the editor\'s `save` format, but it has no "nodes" and "links" arrays');
    return convertForCommand(f, workflow, `the saved workflow of job ${id}`, opts);
  }
  throw unusable(id, `its format is ${format}, neither api nor save`);
}

export async function run(f: Factory, args: string[], opts: JobsRerunOptions): Promise<number> {
  const follow = watchJobOptions(opts);
  await checkFollowTargets(follow);
  const client = new JobsClient(f.http());
  const { id, value: answer } = await readByRef(f, args[0]!, (resolved) => client.workflow(resolved));
  const workflow = await apiWorkflow(f, id, answer, opts);
  f.io.info(sanitizeLine(`submitting the ${answer.format}-format workflow of job ${id} again`));
  return submitWorkflow(f, { workflow, source: `rerun ${id}`, command: ['wes', 'jobs', 'rerun', id] }, opts, follow);
}
