// The `metadata` label every job submit carries: the user's own text (--label), then a token
// naming the submit's Idempotency-Key, so a submit whose answer was lost can be found by its key
// in the server's job list (find-by-key.ts). Kept light: the option parser reads its bounds.
import { METADATA_MAX_BYTES } from '../../protocol/jobs.js';

/** The token in a submit's label that names its key: `wes-key:<key>`. */
export const KEY_LABEL_PREFIX = 'wes-key:';

/** The longest label of the user's own (`--label`): the rest of the 1 KiB is the key's token. */
export const USER_LABEL_MAX_BYTES = METADATA_MAX_BYTES - 300;

/** Why a --label text cannot be used, or undefined. */
export function labelProblem(text: string): string | undefined {
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'it may hold no control characters or line breaks';
  if (Buffer.byteLength(text) > USER_LABEL_MAX_BYTES) return `it may be at most ${USER_LABEL_MAX_BYTES} bytes`;
  return undefined;
}

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

