// A job's labels, read whatever a deployment wrote (keyed-submit.ts writes them in each dialect).
// Serverless deployments take a map of labels, and wes's own key label is one pair among the
// user's (`wes-key`); the self-hosted proxy takes one opaque string, the user's pairs (`k=v` words)
// first and a token naming the submit's Idempotency-Key last (a key may hold spaces); Comfy Cloud
// takes none. The key's label is how a submit whose answer was lost is found in the server's job
// list (keyed-submit.ts). Reading is lenient, as the maker's clients are: a number or null value,
// a string where a map was expected, a list: the job still reads, unusable pairs dropped.
import { isRecord } from '../shared/response-check.js';
import { LABEL_KEY_PATTERN, LABELS_MAX_PAIRS, type JobLabels } from '../../protocol/jobs.js';

/** The token in a submit's label that names its key: `wes-key:<key>`. */
export const KEY_LABEL_PREFIX = 'wes-key:';

/** The key a label names: everything after its last `wes-key:` token (at the start, or after a space), if any. */
export function keyOfLabel(metadata: unknown): string | undefined {
  if (typeof metadata !== 'string') return undefined;
  for (let at = metadata.lastIndexOf(KEY_LABEL_PREFIX); at >= 0; at = at === 0 ? -1 : metadata.lastIndexOf(KEY_LABEL_PREFIX, at - 1)) {
    if (at === 0 || metadata[at - 1] === ' ') {
      const key = metadata.slice(at + KEY_LABEL_PREFIX.length);
      return key === '' ? undefined : key;
    }
  }
  return undefined;
}

/** The pair naming a submit's Idempotency-Key in a serverless label map. */
export const KEY_LABEL = 'wes-key';

/** What a job's `metadata` says: label pairs (a map), or the proxy's string. Read leniently: a
 * number or null value, a list, anything else: the job still reads, unusable pairs dropped. */
export interface ReadLabels {
  pairs: JobLabels;
  text?: string;
}

export function labelsOf(metadata: unknown): ReadLabels {
  if (typeof metadata === 'string') return { pairs: {}, text: metadata };
  if (!isRecord(metadata)) return { pairs: {} };
  const pairs: JobLabels = {};
  for (const [k, v] of Object.entries(metadata)) if (typeof v === 'string') pairs[k] = v;
  return { pairs };
}

/** The Idempotency-Key a job's labels name, if any. */
export function keyOfLabels(labels: ReadLabels): string | undefined {
  return labels.pairs[KEY_LABEL] || keyOfLabel(labels.text);
}

/** The user's own labels (wes's key label left out), for display: `k=v` pairs, or the string's own part. */
export function userLabelText(labels: ReadLabels): string {
  if (labels.text !== undefined) {
    const at = labels.text.lastIndexOf(KEY_LABEL_PREFIX);
    return (at >= 0 && keyOfLabel(labels.text) !== undefined ? labels.text.slice(0, at) : labels.text).trim();
  }
  return Object.entries(labels.pairs)
    .filter(([k]) => k !== KEY_LABEL)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

/** How a deployment takes labels on submit. */
export type LabelDialect = 'map' | 'string' | 'none';

/** Why a `--label key=value` cannot be used, or undefined (the serverless rules, which are the strictest). */
export function labelPairProblem(key: string, value: string): string | undefined {
  if (!LABEL_KEY_PATTERN.test(key)) return 'its key must be 1-40 characters of A-Z a-z 0-9 _ - .';
  if (key === KEY_LABEL) return `the key ${KEY_LABEL} is wes's own (it names the submit's Idempotency-Key)`;
  if (/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(value)) return 'its value may hold no control or bidirectional-override characters';
  return undefined;
}

/** The most user labels a submit takes: the deployment's limit less wes's own key label. */
export const USER_LABELS_MAX = LABELS_MAX_PAIRS - 1;
