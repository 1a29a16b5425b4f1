// A job's labels in each deployment's dialect. Serverless deployments take a map of labels, and
// wes's own key label is one pair among the user's (`wes-key`); the self-hosted proxy takes one
// opaque string, where the user's pairs come first and the key's token last (label.ts); Comfy
// Cloud takes none. Reading is lenient, as the maker's clients are: a number or null value, a
// string where a map was expected, a list: the job still reads, unusable pairs dropped.
import { LABEL_KEY_PATTERN, LABELS_MAX_PAIRS, type JobLabels } from '../../protocol/jobs.js';
import { KEY_LABEL, submitLabel } from './label.js';

export { KEY_LABEL, keyOfLabels, labelsOf, userLabelText, type ReadLabels } from './label.js';

/** How a deployment takes labels on submit. */
export type LabelDialect = 'map' | 'string' | 'none';

/** The `metadata` a submit carries in `dialect`: the user's pairs and the key's label, or nothing. */
export function submitMetadata(dialect: LabelDialect, key: string, user: JobLabels = {}): string | JobLabels | undefined {
  if (dialect === 'none') return undefined;
  if (dialect === 'map') return { ...user, [KEY_LABEL]: key };
  const text = Object.entries(user).map(([k, v]) => `${k}=${v}`).join(' ');
  return submitLabel(key, text || undefined);
}

/** Why a `--label key=value` cannot be used, or undefined (the serverless rules, which are the strictest). */
export function labelPairProblem(key: string, value: string): string | undefined {
  if (!LABEL_KEY_PATTERN.test(key)) return 'its key must be 1-40 characters of A-Z a-z 0-9 _ - .';
  if (key === KEY_LABEL) return `the key ${KEY_LABEL} is wes's own (it names the submit's Idempotency-Key)`;
  if (/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(value)) return 'its value may hold no control or bidirectional-override characters';
  return undefined;
}

/** The most user labels a submit takes: the deployment's limit less wes's own key label. */
export const USER_LABELS_MAX = LABELS_MAX_PAIRS - 1;
