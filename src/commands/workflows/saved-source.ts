// `--saved NAME` on the commands that run a workflow (jobs submit, legacy prompt): the workflow saved
// on the server under NAME, fetched byte for byte and, saved in the editor's UI format, converted
// with the server's own node definitions as `--convert` does (--object-info / --refresh choose
// them); an API-format one is taken as it is.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { isUiFormat, parseWorkflow, parseWorkflowJson } from '../../workflows/workflow-file.js';
import { savedName } from '../../workflows/saved-name.js';
import { readSaved } from '../../features/workflows/saved.js';
import { convertForCommand } from './conversion.js';
import type { ObjectInfoOptions } from './object-info.js';
import { savedWorkflows } from './saved-client.js';
import { nonEmpty, valueOption, type TypedOption } from '../typed-options.js';

export const savedOption = (): TypedOption<string> =>
  valueOption('--saved <name>', 'run the workflow saved on the server under NAME (as `wes workflows list --remote` shows it), converted as --convert does', nonEmpty);

export type WorkflowSource = { kind: 'file'; file: string } | { kind: 'saved'; name: string };

/** The one workflow source: a file argument or --saved, never both, never neither. */
export function oneSource(file: string | undefined, saved: string | undefined, missing: string): WorkflowSource {
  if (file !== undefined && saved !== undefined) throw new UsageError('give either a workflow file or --saved NAME, not both');
  if (file !== undefined) return { kind: 'file', file };
  if (saved !== undefined) return { kind: 'saved', name: saved };
  throw new UsageError(missing);
}

export interface SavedWorkflow {
  workflow: Record<string, unknown>;
  /** As listed: relative to the workflows folder, with `.json`. */
  name: string;
}

export async function savedWorkflowToRun(f: Factory, name: string, opts: ObjectInfoOptions): Promise<SavedWorkflow> {
  const saved = savedName(name);
  const bytes = await readSaved(savedWorkflows(f), saved);
  const source = `the saved workflow ${JSON.stringify(saved.name)}`;
  const text = bytes.toString('utf8');
  const value = parseWorkflowJson(text, source);
  const workflow = isUiFormat(value) ? await convertForCommand(f, value as Record<string, unknown>, source, opts) : parseWorkflow(text, source);
  return { workflow, name: saved.name };
}
