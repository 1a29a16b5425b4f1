// --label key=value (repeatable): the user's labels on a submit (`jobs submit`, batches, `jobs
// rerun`) and the label filters of `jobs list --remote`. Checked by the serverless rules, the
// strictest of the three deployments (clients/jobs/labels.ts).
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../../errors.js';
import { labelPairProblem, USER_LABELS_MAX } from '../../clients/jobs/labels.js';
import type { JobLabels } from '../../protocol/jobs.js';
import { repeatableOption, type TypedOption } from '../typed-options.js';

export type LabelPair = [key: string, value: string];

function labelPair(raw: string): LabelPair {
  const at = raw.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError('a label is key=value, e.g. --label team=vision (repeat --label for more).');
  const [key, value] = [raw.slice(0, at), raw.slice(at + 1)];
  const problem = labelPairProblem(key, value);
  if (problem) throw new InvalidArgumentError(`${problem}.`);
  return [key, value];
}

export function labelOption(description: string): TypedOption<LabelPair[]> {
  return repeatableOption('--label <key=value>', description, labelPair);
}

/** The pairs as a map: each key once, at most `max` of them. */
export function labelMap(pairs: LabelPair[] | undefined, max = USER_LABELS_MAX): JobLabels | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const map: JobLabels = {};
  for (const [k, v] of pairs) {
    if (k in map) throw new UsageError(`--label ${k} is given twice`, 'give each label key once');
    map[k] = v;
  }
  if (pairs.length > max) throw new UsageError(`at most ${max} --label pairs here (${pairs.length} given)`, 'drop some --label pairs');
  return map;
}
