// The options of every command that converts workflows (see src/commands/typed-options.ts):
// where node definitions come from, and --convert on the commands that submit a workflow file.
import { flag, needs, nonEmpty, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import type { Factory } from '../../factory.js';
import type { ApiWorkflow } from '../../workflows/convert.js';
import type { ObjectInfoOptions } from '../../command-kit/workflows/object-info.js';

/** --object-info (a saved file, offline) or --refresh (ask the server again): one or the other. */
export const objectInfoDeclaration = (): OptionsDeclaration<ObjectInfoOptions> => ({
  objectInfo: valueOption('--object-info <file>', 'node definitions from a saved object_info JSON (offline) instead of the server\'s /api/object_info', nonEmpty).conflicts('refresh'),
  refresh: flag('--refresh', 'fetch the server\'s object_info again instead of using the cached copy'),
});

export interface ConvertOptions extends ObjectInfoOptions {
  convert?: boolean;
}

/** --convert and its definition flags. */
export const convertDeclaration = (): OptionsDeclaration<ConvertOptions> => ({
  convert: flag('--convert', 'convert a workflow saved in the editor\'s UI format to the API format before sending (as `wes workflows convert`)'),
  ...objectInfoDeclaration(),
});

/** The definition flags mean something only with --convert (or `also`: another flag that converts, as --saved). */
export const convertRules = <O extends ConvertOptions>(...also: Array<keyof O>): Array<OptionsRule<O>> => [needs<O>('objectInfo', 'convert', ...also), needs<O>('refresh', 'convert', ...also)];

/**
 * The converter behind `--convert` on the commands that submit, or none without it. Loaded when it
 * converts: the conversion brings the engine's client and the object_info cache, which a submit
 * without --convert never needs.
 */
export function converterFromOptions(f: Factory, opts: ConvertOptions): ((ui: Record<string, unknown>, source: string) => Promise<ApiWorkflow>) | undefined {
  if (opts.convert !== true) return undefined;
  return async (ui, name) => (await import('../../command-kit/workflows/conversion.js')).convertForCommand(f, ui, name, opts);
}
