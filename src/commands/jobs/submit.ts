// wes jobs submit <workflow|->: local checks first (JSON, API format, --set targets), then the
// files and assets named by --set (uploaded unless held, put in as typed asset references), then
// one submit under a single-use Idempotency-Key. --wait / --download continue as `jobs watch`.
// Everything after the read is submitPrepared's (src/command-kit/jobs/submit-workflow.ts), which
// `jobs rerun` shares.
import { basename } from 'node:path';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { KEY_BATCH_FRESH, KEY_SINGLE_USE, wrapped } from '../../key-rules.js';
import { readWorkflow } from '../../workflows/workflow-file.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { submitPrepared, type PreparedWorkflow } from '../../command-kit/jobs/submit-workflow.js';
import { transferReporterOn } from '../reporters.js';
import { labelMap } from './label-option.js';
import { showSubmitted } from './submitted-view.js';
import { sameFile } from '../../files/same-file.js';
import { flag, needs, nonEmpty, repeatableOption, valueOption, wholeNumberIn, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { convertDeclaration, convertRules, converterFromOptions } from '../workflows/convert-options.js';
import { MAX_CONCURRENCY, parseVia } from '../../features/batch/via-target.js';
import { partnerTokenOnJobApi } from '../../features/partner-extra-data.js';
import { checkFollowTargets, downloadDeclaration, downloadRules, followDeclaration, jobWatch, submitFlagsDeclaration, watchJobOptions, type JobsSubmitOptions } from './options.js';
import { oneSource, savedOption } from '../workflows/saved-source.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

/**
 * One workflow, or --batch FILE.jsonl: flags of the other mode are refused (commander's conflicts
 * here, `needs` in jobsSubmitRules). --download and --batch imply --wait: both follow their jobs.
 */
const jobsSubmitOptions = (): OptionsDeclaration<JobsSubmitOptions> => {
  const follow = followDeclaration();
  const convert = convertDeclaration();
  const download = downloadDeclaration();
  const submit = submitFlagsDeclaration();
  convert.convert.conflicts('batch');
  follow.cancelOnInterrupt.conflicts('batch');
  submit.idempotencyKey.conflicts('batch');
  submit.strict.conflicts('batch');
  download.download.implies({ wait: true });
  return {
    ...convert,
    saved: savedOption().conflicts(['batch', 'convert']),
    ...submit,
    batch: valueOption('--batch <file.jsonl>', 'submit one job per line (a workflow, or {"workflow": ..., "set": {"NODE.INPUT": value}}), watch them all; NDJSON results in input order', nonEmpty).implies({ wait: true }),
    concurrency: valueOption('--concurrency <n>', 'with --batch: jobs in flight at once (default 4)', wholeNumberIn(1, MAX_CONCURRENCY)),
    results: valueOption('--results <file>', 'with --batch: write the results to FILE instead of stdout (journaled in FILE.journal while running)', nonEmpty),
    resume: valueOption('--resume <results.jsonl>', 'with --batch: go on from an earlier run (its results file; after a crash the same path, whose .journal it reads too): follow the jobs it made, look for the jobs of submits left without an answer, run the rest', nonEmpty),
    resubmitInDoubt: flag('--resubmit-in-doubt', 'with --batch: send a line whose earlier submit may have made a job that cannot be found under a new key (it may then run twice)'),
    retryFailed: flag('--retry-failed', 'with --resume: submit lines whose job failed, was canceled or expired again, as new jobs'),
    via: repeatableOption('--via <profile[:n]|url[,n]>', 'with --batch: spread the lines over this endpoint too, n in flight there (repeatable)', parseVia),
    ...follow,
    ...download,
  };
};

/** The results replace their file when the batch ends: naming the batch file there would lose its lines. */
const resultsNotTheBatch: OptionsRule<JobsSubmitOptions> = ({ opts, flag }) =>
  opts.results !== undefined && opts.batch !== undefined && opts.batch !== '-' && sameFile(opts.results, opts.batch)
    ? `${flag('results')} ${opts.results} is the batch file itself: the results would replace its lines; write them to another file`
    : undefined;

/** Batch-only flags need --batch; the follow flags need a mode that follows (--wait, implied by the others). */
const jobsSubmitRules = (): Array<OptionsRule<JobsSubmitOptions>> => [
  needs('concurrency', 'batch'),
  needs('results', 'batch'),
  needs('resume', 'batch'),
  needs('resubmitInDoubt', 'batch'),
  needs('retryFailed', 'resume'),
  needs('via', 'batch'),
  needs('interval', 'wait', 'download', 'batch'),
  needs('events', 'wait', 'download', 'batch'),
  needs('cancelOnInterrupt', 'wait', 'download'),
  ...downloadRules<JobsSubmitOptions>(),
  ...convertRules<JobsSubmitOptions>('saved'),
  resultsNotTheBatch,
];

const positional = { workflow: arg('[workflow]') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: JobsSubmitOptions): Promise<number> {
  const source = args.workflow;
  if (opts.batch !== undefined) {
    if (source !== undefined) throw new UsageError('give either a workflow file or --batch FILE.jsonl, not both');
    const run = await (await import('./batch-options.js')).batchRunOf(f, opts.batch, opts);
    const { batchView } = await import('./batch-progress.js');
    const outcome = await (await import('../../features/batch/batch.js')).runBatchFile(f, run, f.io.stdin, batchView(f.io));
    return (await import('./batch-outcome.js')).tellOutcome(f, opts.batch, opts, outcome);
  }
  const { io } = f;
  const tokenLeftOut = partnerTokenOnJobApi(f.settings());
  if (tokenLeftOut) io.warn(`note: ${tokenLeftOut}`);
  const from = oneSource(source, opts.saved, 'name the workflow file to submit (- reads standard input), or give --saved NAME or --batch FILE.jsonl');
  const follow = watchJobOptions(opts);
  await checkFollowTargets(follow);
  // Following (the job's events, downloads, the progress view and its tables) is loaded only for
  // --wait (a submit alone loaded 84 modules, 1.06 MB of text, with it; 64 without), and while the
  // submit is on its way, so that the follow starts as soon as the job is made, as before.
  const following = opts.wait ? Promise.all([import('../../features/jobs/watch.js'), import('./follow-view.js')]) : undefined;
  let prepared: PreparedWorkflow;
  if (from.kind === 'saved') {
    const saved = await (await import('../../command-kit/workflows/saved-workflow.js')).savedWorkflowToRun(f, from.name, opts);
    prepared = { workflow: saved.workflow, source: `saved ${saved.name}` };
  } else {
    const file = from.file;
    const workflow = await readWorkflow(file, io.stdin, converterFromOptions(f, opts), { signal: f.signal, isTTY: io.stdinIsTTY, say: (line) => io.info(line) });
    prepared = { workflow, source: file === '-' ? '-' : basename(file) };
  }
  const client = f.client(JobsClient);
  const submitted = await submitPrepared(f, client, prepared, { ...opts, labels: labelMap(opts.label) }, transferReporterOn(io));
  // --download implies --wait (declared in options.ts).
  showSubmitted(io, submitted, opts.wait === true);
  if (!opts.wait) return 0;
  const [{ watchJob }, { JobFollowView, showWatched }] = await following!;
  const { job } = submitted.job;
  return showWatched(io, await watchJob(f, client, submitted.job, jobWatch(f, job.id, follow), await JobFollowView.watching(io, job, follow)), follow);
}

export default defineVerb({
  path: ['jobs', 'submit'],
  args: positional,
  options: jobsSubmitOptions(),
  rules: jobsSubmitRules(),
  help: {
    summary: 'Submit an API-format workflow file (- reads standard input); prints the job id, or the Job with --json',
    after: [
      `
${wrapped(KEY_SINGLE_USE)}

The partner-node key (--partner-key, WES_PARTNER_KEY) goes into extra_data.api_key_comfy_org.
The job API takes no partner token: --partner-token is refused (exit 2); one from
WES_PARTNER_TOKEN or the profile is not sent (a note says so). A batch sends it to engines only.

Examples:
  $ wes jobs submit flow.json --set 3.seed=42 --set 10.image=@cat.png --wait
  $ cat flow.json | wes jobs submit - --download out/
  $ wes jobs submit --saved "my flow" --wait
  $ wes jobs submit flow.json --json | jq -r .id

Batches: each submit goes under a fresh single-use Idempotency-Key; a submit whose answer was lost
is looked for by its key, never sent again. Exit 0 when every line succeeded, else the gravest
line's code (130 when interrupted; the results then say where to resume).
${wrapped(KEY_BATCH_FRESH)}
  $ wes jobs submit --batch jobs.jsonl --concurrency 8 --download out/ --results results.jsonl
  $ wes jobs submit --batch jobs.jsonl --resume results.jsonl --results results.jsonl
  $ wes jobs submit --batch jobs.jsonl --via gpu-a:8 --via gpu-b:4 --results results.jsonl

Flags of one mode are refused in the other (exit 2): --concurrency, --results, --resume,
--resubmit-in-doubt, --via and a repeated --base-url need --batch; --retry-failed needs --resume;
--idempotency-key, --strict, --convert (with --object-info, --refresh), --saved and
--cancel-on-interrupt go with one workflow only; --interval and --no-events need --wait,
--download or --batch; --clobber and --skip-existing need --download; --results may not name the
batch file.`,
    ],
  },
  /** A batch spreads its lines over every --base-url given. */
  takesSeveralBaseUrls: (opts) => opts.batch !== undefined,
  run,
});
