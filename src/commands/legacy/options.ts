// The typed options of the `wes legacy` verbs, declared once (see src/commands/typed-options.ts):
// legacy/index.ts adds them to the commands, and each verb's run function takes the parsed object.
import { existingFileOptions, existingFileRules, noFileFlagsWithStdout, type ExistingFileOptions } from '../option-values.js';
import { InvalidArgumentError } from 'commander';
import { choice, flag, needs, nonEmpty, valueOption, wholeNumberIn, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { intervalOption } from '../poll-interval.js';
import { parseOriginalRef, type OriginalRef } from './original-ref.js';
import { convertDeclaration, convertRules, type ConvertOptions } from '../workflows/options.js';

export const UPLOAD_TYPES = ['input', 'temp'] as const;
export const VIEW_TYPES = ['output', 'temp', 'input'] as const;

export interface LegacyUploadOptions {
  type: (typeof UPLOAD_TYPES)[number];
  overwrite?: boolean;
  mask?: boolean;
  original?: OriginalRef;
}

export const legacyUploadOptions = (): OptionsDeclaration<LegacyUploadOptions> => ({
  type: choice('--type <type>', 'input for images, temp for temporary files', UPLOAD_TYPES).default('input' as const),
  overwrite: flag('--overwrite', 'replace a file of the same name instead of getting a numbered copy').conflicts('mask'),
  mask: flag('--mask', 'upload a mask for an earlier image (needs --original)'),
  original: valueOption('--original <file_ref>', 'the image the mask belongs to: a name, or {"filename":…,"subfolder":…,"type":…}', parseOriginalRef),
});

export const legacyUploadRules: Array<OptionsRule<LegacyUploadOptions>> = [
  ({ given }) => (given('mask') && !given('original') ? '--mask needs --original FILE_REF (the image the mask belongs to)' : undefined),
  needs('original', 'mask'),
];

export interface LegacyPromptOptions extends ConvertOptions, ExistingFileOptions {
  wait?: boolean;
  ws?: boolean;
  previews?: string;
  download?: string;
  interval?: number;
}

export const legacyPromptOptions = (): OptionsDeclaration<LegacyPromptOptions> => ({
  ...convertDeclaration(),
  wait: flag('--wait', 'poll the status until the prompt ends; exit code by outcome'),
  ws: flag('--ws', 'follow the WebSocket instead: live node and step progress'),
  previews: valueOption('--previews <dir>', 'save preview images into DIR (follows the WebSocket)', nonEmpty),
  download: valueOption('--download <dir>', 'when the prompt succeeds, save its outputs into DIR (follows the WebSocket)', nonEmpty),
  interval: intervalOption('seconds between status polls (default 1; 5 as a safety net while on the WebSocket)'),
  ...existingFileOptions(),
});

/**
 * Without --wait or a WebSocket flag the prompt is only submitted: nothing is polled or saved, so
 * --interval and the file flags would be silently ignored. (--wait beside --ws is not refused:
 * both wait for the end, the socket with live progress.)
 */
export const legacyPromptRules: Array<OptionsRule<LegacyPromptOptions>> = [
  ...convertRules<LegacyPromptOptions>(),
  needs('interval', 'wait', 'ws', 'previews', 'download'),
  ...existingFileRules<LegacyPromptOptions>('download', 'previews'),
];

export interface LegacyStatusOptions {
  wait?: boolean;
  interval?: number;
}

export const legacyStatusOptions = (): OptionsDeclaration<LegacyStatusOptions> => ({
  wait: flag('--wait', 'poll until a terminal status; exit 0 success, 3 failed or lost, 10 cancelled'),
  interval: intervalOption('seconds between polls (default 1; with --wait)'),
});

export const legacyStatusRules: Array<OptionsRule<LegacyStatusOptions>> = [needs('interval', 'wait')];

export interface LegacyWatchOptions extends ExistingFileOptions {
  previews?: string;
  preview?: boolean;
  interval?: number;
}

export const legacyWatchOptions = (): OptionsDeclaration<LegacyWatchOptions> => ({
  previews: valueOption('--previews <dir>', 'save preview images into DIR, named by node and sequence', nonEmpty),
  preview: flag('--preview', 'draw the latest preview picture under the progress line (kitty, iTerm2 or sixel terminals)'),
  interval: intervalOption('seconds between REST status checks while the socket is quiet (default 5)'),
  ...existingFileOptions(),
});

/** Only previews are saved by a watch: the file flags mean something with --previews alone. */
export const legacyWatchRules: Array<OptionsRule<LegacyWatchOptions>> = existingFileRules('previews');

export interface LegacyQueueDeleteOptions {
  running?: boolean;
}

export const legacyQueueDeleteOptions = (): OptionsDeclaration<LegacyQueueDeleteOptions> => ({
  running: flag('--running', 'also stop a named prompt that is running (as `legacy interrupt ID` does), instead of leaving it'),
});

export const LIST_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;

export interface LegacyListOptions {
  status?: string;
  limit: number;
  offset: number;
}

/** `--status a,b`: statuses of the published job list, checked while the command line is read. */
function statusList(raw: string): string {
  const given = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = given.filter((s) => !(LIST_STATUSES as readonly string[]).includes(s));
  if (given.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`${unknown.length ? `unknown status ${unknown.map((u) => JSON.stringify(u)).join(', ')}; ` : ''}give one or more of ${LIST_STATUSES.join(', ')}, comma-separated.`);
  return given.join(',');
}

export const legacyListOptions = (): OptionsDeclaration<LegacyListOptions> => ({
  status: valueOption('--status <status,...>', `only jobs with these statuses: ${LIST_STATUSES.join(', ')}`, statusList),
  limit: valueOption('--limit <n>', 'at most N jobs (1-1000)', wholeNumberIn(1, 1000)).default(100),
  offset: valueOption('--offset <n>', 'skip the newest N (the next page starts where the last ended)', wholeNumberIn(0)).default(0),
});

export interface LegacyViewOptions extends ExistingFileOptions {
  subfolder: string;
  type: (typeof VIEW_TYPES)[number];
  output?: string;
}

export const legacyViewOptions = (): OptionsDeclaration<LegacyViewOptions> => ({
  subfolder: valueOption('--subfolder <subfolder>', 'subfolder of the file reference', (raw) => raw).default(''),
  type: choice('--type <type>', 'output for final outputs, temp for previews', VIEW_TYPES).default('output' as const),
  output: valueOption('-o, --output <file>', 'write to FILE (- for stdout)', nonEmpty),
  ...existingFileOptions(),
});

export const legacyViewRules: Array<OptionsRule<LegacyViewOptions>> = [noFileFlagsWithStdout()];
