// The options several `wes jobs` verbs share (see src/commands/typed-options.ts): how a waiting
// command follows its job, --download, the flags of one workflow's submit (`jobs submit` and
// `jobs rerun`), what `jobs list` and its --remote part take.
import { existingFileOptions, existingFileRules, idempotencyKey, type ExistingFileOptions } from '../option-values.js';
import { flag, nonEmpty, repeatableOption, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { intervalMs, intervalOption } from '../poll-interval.js';
import type { Factory } from '../../factory.js';
import { existingPolicy, type ExistingPolicy } from '../../files/existing.js';
import { checkFolderTarget } from '../../files/targets.js';
import type { JobWatch } from '../../features/jobs/watch.js';
import { followFlagWords, resumeCommand } from '../../command-kit/jobs/resume-command.js';
import type { ConvertOptions } from '../workflows/convert-options.js';
import type { ViaTarget } from '../../features/batch/via-target.js';
import { checkSetSyntax } from '../../features/jobs/set-syntax.js';
import { labelOption, type LabelPair } from './label-option.js';

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
  label?: LabelPair[];
  wait?: boolean;
}

export const submitFlagsDeclaration = (): OptionsDeclaration<SubmitFlags> => ({
  set: repeatableOption('--set <node.input=value>', 'set an input: JSON when it parses, else a string; @PATH uploads a file, asset:ID names an asset (repeatable)', checkSetSyntax),
  strict: flag('--strict', 'where the server has no node definitions, refuse a --set to an input the workflow does not show (default: warn and send it; a name the definition lacks is always refused)'),
  idempotencyKey: valueOption('--idempotency-key <key>', 'the Idempotency-Key to send (single use for 24 h, refused again whatever the body; default: a new random one); a key used before finds its job where the server lists jobs', idempotencyKey),
  label: labelOption('a label of your own, key=value (repeatable), kept with the job beside wes\'s own key label (Comfy Cloud keeps none)'),
  wait: flag('--wait', 'then watch the job until it ends; exit code by outcome'),
});

export interface JobsSubmitOptions extends ConvertOptions, FollowFlags, DownloadFlags, SubmitFlags {
  /** A workflow saved on the server, by name, instead of a file. */
  saved?: string;
  batch?: string;
  concurrency?: number;
  results?: string;
  resume?: string;
  resubmitInDoubt?: boolean;
  retryFailed?: boolean;
  via?: ViaTarget[];
}

/** Recorded for a job the service no longer knows (404 on --refresh): retention passed. */
export const GONE = 'gone';
export const LISTED_STATUSES = ['queued', 'running', 'canceling', 'succeeded', 'failed', 'canceled', 'expired', GONE] as const;
export type ListedStatus = (typeof LISTED_STATUSES)[number];

export interface JobsListOptions {
  remote?: boolean;
  /** --label key=value filters (serverless: up to three, on the server). */
  label?: LabelPair[];
  refresh?: boolean;
  status?: ListedStatus;
  limit?: number;
}

/** What a waiting command asks of its watch (`jobs watch`, every --wait), from its typed options. */
export interface WatchJobOptions {
  intervalMs: number;
  events: boolean;
  cancelOnInterrupt: boolean;
  download?: string;
  /** A file already in the --download folder. */
  existing: ExistingPolicy;
  /** Draw the latest preview picture under the progress line (`jobs watch --preview`). */
  preview?: boolean;
  /** How a canceled job ends the command (10 for watch; 0 for `cancel --wait`). */
  canceledExit?: number;
  /** The follow flags as given, for the command that resumes after Ctrl-C. */
  resumeFlags: string[];
  /** The verb that resumes (default `watch`; `cancel --wait` resumes as itself). */
  resumeVerb?: string[];
  /** Following a job asked to cancel: an end other than `canceled` is said (the cancel did not take). */
  afterCancel?: boolean;
}

/** The follow flags every waiting command takes, as its typed options hold them. */
export function watchJobOptions(opts: FollowFlags & Partial<DownloadFlags> & { preview?: boolean }): WatchJobOptions {
  return {
    intervalMs: intervalMs(opts.interval),
    events: opts.events !== false,
    cancelOnInterrupt: opts.cancelOnInterrupt === true,
    download: opts.download,
    existing: existingPolicy(opts),
    preview: opts.preview === true,
    resumeFlags: followFlagWords(opts),
  };
}

/** Checks the --download folder before anything is submitted or followed (exit 2 when unusable). */
export async function checkFollowTargets(options: WatchJobOptions): Promise<void> {
  if (options.download !== undefined) await checkFolderTarget(options.download, '--download');
}

/** The watch of job `id` these options ask for, with the command that resumes it after Ctrl-C or --timeout. */
export function jobWatch(f: Factory, id: string, options: WatchJobOptions): JobWatch {
  const resume = resumeCommand(f, options.resumeVerb ?? ['watch'], id, options.resumeFlags);
  return { intervalMs: options.intervalMs, events: options.events, cancelOnInterrupt: options.cancelOnInterrupt, resume, download: options.download, existing: options.existing, afterCancel: options.afterCancel };
}
