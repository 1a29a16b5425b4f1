// Reading a job's labels, whatever its deployment wrote (what `jobs get` and the list show), and
// the self-hosted proxy's `metadata` string: the user's own labels (--label, as `k=v` words), then
// a token naming the submit's Idempotency-Key, so a submit whose answer was lost can be found by
// its key in the server's job list (find-by-key.ts). Writing each deployment's dialect: labels.ts.
import { isRecord } from '../shared/response-check.js';
import type { JobLabels } from '../../protocol/jobs.js';

/** The token in a submit's label that names its key: `wes-key:<key>`. */
export const KEY_LABEL_PREFIX = 'wes-key:';

/** The label a submit carries: the user's text (if any), then the key's token, always last (a key may hold spaces). */
export function submitLabel(key: string, userLabel?: string): string {
  const token = `${KEY_LABEL_PREFIX}${key}`;
  return userLabel ? `${userLabel} ${token}` : token;
}

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
