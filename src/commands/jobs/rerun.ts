// wes jobs rerun <id> [--set ...] [--wait ...]: the workflow behind a job submitted again as a new
// job, through the same path as `jobs submit` (--set, uploads, a new Idempotency-Key, the history,
// --wait / --download). A workflow the service holds in the editor's `save` format is converted
// to the API format first, as `jobs submit --convert` does.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import type { JobWorkflowResponse } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { convertForCommand } from '../../command-kit/workflows/conversion.js';
import { isUiFormat } from '../../workflows/workflow-file.js';
import { submitPrepared } from '../../command-kit/jobs/submit-workflow.js';
import { transferReporterOn } from '../reporters.js';
import { labelMap } from './label-option.js';
import { showSubmitted } from './submitted-view.js';
import { JOB_ID_HELP, readByRef } from '../../command-kit/jobs/read-job.js';
import { needs, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import type { ObjectInfoOptions } from '../../command-kit/workflows/object-info.js';
import { objectInfoDeclaration } from '../workflows/convert-options.js';
import { checkFollowTargets, downloadDeclaration, downloadRules, followDeclaration, submitFlagsDeclaration, jobWatch, watchJobOptions, type DownloadFlags, type FollowFlags, type SubmitFlags } from './options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

type JobsRerunOptions = ObjectInfoOptions & FollowFlags & DownloadFlags & SubmitFlags;

const jobsRerunOptions = (): OptionsDeclaration<JobsRerunOptions> => {
  const download = downloadDeclaration();
  download.download.implies({ wait: true });
  return { ...submitFlagsDeclaration(), ...followDeclaration(), ...download, ...objectInfoDeclaration() };
};

/** The follow flags need a rerun that follows (--wait, implied by --download). */
const jobsRerunRules = (): Array<OptionsRule<JobsRerunOptions>> => [
  needs('interval', 'wait', 'download'),
  needs('events', 'wait', 'download'),
  needs('cancelOnInterrupt', 'wait', 'download'),
  ...downloadRules<JobsRerunOptions>(),
];

const positional = { id: arg('<id>') };

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

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: JobsRerunOptions): Promise<number> {
  const follow = watchJobOptions(opts);
  await checkFollowTargets(follow);
  // Following is loaded only for --wait, while the submit is on its way, as in jobs submit.
  const following = opts.wait ? Promise.all([import('../../features/jobs/watch.js'), import('./follow-view.js')]) : undefined;
  const client = f.client(JobsClient);
  const { id, value: answer } = await readByRef(f, args.id, (resolved) => client.workflow(resolved));
  const workflow = await apiWorkflow(f, id, answer, opts);
  f.io.info(sanitizeLine(`submitting the ${answer.format}-format workflow of job ${id} again`));
  const submitted = await submitPrepared(f, client, { workflow, source: `rerun ${id}` }, { ...opts, labels: labelMap(opts.label) }, transferReporterOn(f.io));
  showSubmitted(f.io, submitted, opts.wait === true);
  if (!opts.wait) return 0;
  const [{ watchJob }, { JobFollowView, showWatched }] = await following!;
  const { job } = submitted.job;
  return showWatched(f.io, await watchJob(f, client, submitted.job, jobWatch(f, job.id, follow), await JobFollowView.watching(f.io, job, follow)), follow);
}

export default defineVerb({
  path: ['jobs', 'rerun'],
  args: positional,
  options: jobsRerunOptions(),
  rules: jobsRerunRules(),
  help: {
    summary: 'Submit the workflow behind a job again as a new job (--set changes inputs; as jobs submit)',
    after: [
      `
A workflow the service keeps in the editor's save format is converted to the API format first, as
\`jobs submit --convert\` does (--object-info / --refresh choose the node definitions).

Examples:
  $ wes jobs rerun @last --set 3.seed=43 --wait
  $ wes jobs rerun "$ID" --download out/`,
      `\n${JOB_ID_HELP}`,
    ],
  },
  run,
});
