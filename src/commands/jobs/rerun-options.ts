// The typed options of `jobs workflow` and `jobs rerun` (see src/commands/typed-options.ts).
// `rerun` takes the flags of a one-workflow `jobs submit` that act once the workflow is in hand,
// declared once in options.ts; --object-info and --refresh serve the conversion of a workflow the
// service has in the editor's `save` format (a rerun converts it as --convert does).
import { existingFileOptions, existingFileRules, noFileFlagsWithStdout, type ExistingFileOptions } from '../option-values.js';
import { needs, nonEmpty, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import type { ObjectInfoOptions } from '../workflows/object-info.js';
import { objectInfoDeclaration } from '../workflows/options.js';
import { downloadDeclaration, downloadRules, followDeclaration, submitFlagsDeclaration, type DownloadFlags, type FollowFlags, type SubmitFlags } from './options.js';

export interface JobsWorkflowOptions extends ExistingFileOptions {
  output?: string;
}

export const jobsWorkflowOptions = (): OptionsDeclaration<JobsWorkflowOptions> => ({
  output: valueOption('-o, --output <file>', 'write the workflow to FILE (- for standard output) instead of printing it', nonEmpty),
  ...existingFileOptions(),
});

export const jobsWorkflowRules = (): Array<OptionsRule<JobsWorkflowOptions>> => [...existingFileRules<JobsWorkflowOptions>('output'), noFileFlagsWithStdout()];

export type JobsRerunOptions = ObjectInfoOptions & FollowFlags & DownloadFlags & SubmitFlags;

export const jobsRerunOptions = (): OptionsDeclaration<JobsRerunOptions> => {
  const download = downloadDeclaration();
  download.download.implies({ wait: true });
  return { ...submitFlagsDeclaration(), ...followDeclaration(), ...download, ...objectInfoDeclaration() };
};

/** The follow flags need a rerun that follows (--wait, implied by --download). */
export const jobsRerunRules = (): Array<OptionsRule<JobsRerunOptions>> => [
  needs('interval', 'wait', 'download'),
  needs('events', 'wait', 'download'),
  needs('cancelOnInterrupt', 'wait', 'download'),
  ...downloadRules<JobsRerunOptions>(),
];
