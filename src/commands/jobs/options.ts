// The typed options of the `wes jobs` verbs, declared once (see src/commands/typed-options.ts):
// jobs/index.ts adds them to the commands, and each verb's run function takes the parsed object.
// The modes of `jobs submit` are declared here too: a flag of one mode given in another is a
// usage error before anything is read or sent.
import { sameFile } from '../../files/same-file.js';
import { existingFileOptions, existingFileRules, idempotencyKey, type ExistingFileOptions } from '../option-values.js';
import { checked, choice, flag, needs, nonEmpty, repeatableOption, valueOption, wholeNumberIn, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { intervalOption } from '../poll-interval.js';
import { convertDeclaration, convertRules, type ConvertOptions } from '../workflows/options.js';
import { MAX_CONCURRENCY, parseVia, type ViaTarget } from '../../features/batch/via-target.js';
import { checkSetSyntax } from '../../features/jobs/set-syntax.js';
import { labelProblem } from '../../clients/jobs/label.js';

/** How a waiting command follows its job. */
export interface FollowFlags {
  /** Seconds between polls. */
  interval?: number;
  /** False with --no-events: poll only. */
  events?: boolean;
  cancelOnInterrupt?: boolean;
}

export interface DownloadFlags extends ExistingFileOptions {
  download?: string;
}

export const followDeclaration = (): OptionsDeclaration<FollowFlags> => ({
  interval: intervalOption('seconds between polls of the job (default 1)'),
  events: flag('--no-events', 'poll only; do not listen on the job\'s event stream'),
  cancelOnInterrupt: flag('--cancel-on-interrupt', 'on Ctrl-C, cancel the job before exiting (default: leave it running)'),
});

/** --download DIR, with what to do about files already there. */
export const downloadDeclaration = (): OptionsDeclaration<DownloadFlags> => ({
  download: valueOption('--download <dir>', 'when the job succeeds, save its outputs into DIR', nonEmpty),
  ...existingFileOptions(),
});

/** --clobber and --skip-existing are about the files --download saves. */
export const downloadRules = <O extends DownloadFlags>(): Array<OptionsRule<O>> => existingFileRules<O>('download');

/** The flags of one workflow's submit that act once the workflow is read (`jobs submit`, `jobs rerun`). */
export interface SubmitFlags {
  set?: string[];
  strict?: boolean;
  idempotencyKey?: string;
  label?: string;
  wait?: boolean;
}

export const submitFlagsDeclaration = (): OptionsDeclaration<SubmitFlags> => ({
  set: repeatableOption('--set <node.input=value>', 'set an input: JSON when it parses, else a string; @PATH uploads a file, asset:ID names an asset (repeatable)', checkSetSyntax),
  strict: flag('--strict', 'refuse a --set to an input its node does not take (default: warn and send it)'),
  idempotencyKey: valueOption('--idempotency-key <key>', 'the Idempotency-Key to send (single use; default: a new random one); a key used before finds the job it made', idempotencyKey),
  label: valueOption('--label <text>', 'a label of your own, kept with the job in its metadata (beside wes\'s own, which names the key)', checked(labelProblem)),
  wait: flag('--wait', 'then watch the job until it ends; exit code by outcome'),
});

export interface JobsSubmitOptions extends ConvertOptions, FollowFlags, DownloadFlags, SubmitFlags {
  batch?: string;
  concurrency?: number;
  results?: string;
  resume?: string;
  resubmitInDoubt?: boolean;
  retryFailed?: boolean;
  via?: ViaTarget[];
}

/**
 * One workflow, or --batch FILE.jsonl: flags of the other mode are refused (commander's conflicts
 * here, `needs` in jobsSubmitRules). --download and --batch imply --wait: both follow their jobs.
 */
export const jobsSubmitOptions = (): OptionsDeclaration<JobsSubmitOptions> => {
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
    ...submit,
    batch: valueOption('--batch <file.jsonl>', 'submit one job per line (a workflow, or {"workflow": ..., "set": {"NODE.INPUT": value}}), watch them all; NDJSON results in input order', nonEmpty).implies({ wait: true }),
    concurrency: valueOption('--concurrency <n>', 'with --batch: jobs in flight at once (default 4)', wholeNumberIn(1, MAX_CONCURRENCY)),
    results: valueOption('--results <file>', 'with --batch: write the results to FILE instead of stdout (journaled in FILE.journal while running)', nonEmpty),
    resume: valueOption('--resume <results.jsonl>', 'with --batch: go on from an earlier run (its results, or its journal after a crash): follow the jobs it made, look for the jobs of submits left without an answer, run the rest', nonEmpty),
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
export const jobsSubmitRules = (): Array<OptionsRule<JobsSubmitOptions>> => [
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
  ...convertRules<JobsSubmitOptions>(),
  resultsNotTheBatch,
];

export type JobsWatchOptions = FollowFlags & DownloadFlags & { preview?: boolean };

export const jobsWatchOptions = (): OptionsDeclaration<JobsWatchOptions> => ({
  ...followDeclaration(),
  ...downloadDeclaration(),
  preview: flag('--preview', 'draw the latest preview picture under the progress line (kitty, iTerm2 or sixel terminals)'),
});

export const jobsWatchRules = (): Array<OptionsRule<JobsWatchOptions>> => downloadRules<JobsWatchOptions>();

export interface JobsCancelOptions extends FollowFlags {
  wait?: boolean;
}

export const jobsCancelOptions = (): OptionsDeclaration<JobsCancelOptions> => ({
  wait: flag('--wait', 'then wait until the job has ended'),
  ...followDeclaration(),
});

/** `cancel` follows the job only with --wait. */
export const jobsCancelRules = (): Array<OptionsRule<JobsCancelOptions>> => [needs('interval', 'wait'), needs('events', 'wait'), needs('cancelOnInterrupt', 'wait')];

export type JobsDownloadOptions = ExistingFileOptions & { show?: boolean };

export const jobsDownloadOptions = (): OptionsDeclaration<JobsDownloadOptions> => ({
  ...existingFileOptions(),
  show: flag('--show', 'show each saved picture under its path (kitty, iTerm2 or sixel terminals)'),
});

/** Recorded for a job the service no longer knows (404 on --refresh): retention passed. */
export const GONE = 'gone';
export const LISTED_STATUSES = ['queued', 'running', 'canceling', 'succeeded', 'failed', 'canceled', 'expired', GONE] as const;
export type ListedStatus = (typeof LISTED_STATUSES)[number];

export interface JobsListOptions {
  remote?: boolean;
  refresh?: boolean;
  status?: ListedStatus;
  limit?: number;
}

export const jobsListOptions = (): OptionsDeclaration<JobsListOptions> => ({
  remote: flag('--remote', 'list the server\'s own jobs (GET /api/v2/jobs, where the server has a list) instead of this machine\'s history').conflicts('refresh'),
  refresh: flag('--refresh', 'ask the service for the current status of the unfinished ones first'),
  status: choice('--status <status>', 'only jobs with this status', LISTED_STATUSES),
  limit: valueOption('--limit <n>', 'at most N jobs (default 20)', wholeNumberIn(1, 10_000)),
});

export interface JobsFindOptions {
  key: string;
}

export const jobsFindOptions = (): OptionsDeclaration<JobsFindOptions> => ({
  key: valueOption('--key <key>', 'the Idempotency-Key the submit was sent with (an in-doubt error names it)', idempotencyKey).makeOptionMandatory(),
});
