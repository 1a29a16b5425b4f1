// `--saved NAME` on the commands that run a workflow (jobs submit, legacy prompt): the option and
// the one workflow source it makes with a file argument. The saved workflow itself is fetched and
// converted by src/command-kit/workflows/saved-workflow.ts.
import { UsageError } from '../../errors.js';
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
