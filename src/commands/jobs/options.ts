// The options several `wes jobs` verbs share (see src/commands/typed-options.ts): how a waiting
// command follows its job, --download, the flags of one workflow's submit (`jobs submit` and
// `jobs rerun`), what `jobs list` and its --remote part take.
import { existingFileOptions, existingFileRules, idempotencyKey, type ExistingFileOptions } from '../option-values.js';
import { flag, nonEmpty, repeatableOption, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { intervalOption } from '../poll-interval.js';
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
