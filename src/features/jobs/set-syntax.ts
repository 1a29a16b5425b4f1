// The shape of one `--set NODE.INPUT=VALUE`, checked as commander reads the command line (before
// a workflow file or standard input is read): what can be told without the workflow. It stays
// light (no JSON reader), because the command tree loads it on every run.
import { UsageError } from '../../errors.js';

export const SET_HINT = 'write --set NODE.INPUT=VALUE, e.g. --set 3.seed=42 or --set 10.image=@cat.png';

/** The argument unchanged, or the usage error parseSet would give later for its shape. */
export function checkSetSyntax(arg: string): string {
  const eq = arg.indexOf('=');
  if (eq < 0) throw new UsageError(`--set ${JSON.stringify(arg)}: missing "="`, SET_HINT);
  if (eq === 0) throw new UsageError(`--set ${JSON.stringify(arg)}: nothing before "=": name a node and its input`, SET_HINT);
  if (!arg.slice(0, eq).includes('.')) throw new UsageError(`--set ${JSON.stringify(arg)}: name a node and an input as NODE.INPUT`, SET_HINT);
  if (arg.slice(eq + 1) === '@') throw new UsageError('--set: `@` must be followed by a file path', SET_HINT);
  return arg;
}
