import { UsageError } from '../../errors.js';
import { PROFILE_KEYS, isProfileKey, type ProfileKey } from '../../config/keys.js';

export function parseKey(key: string | undefined): ProfileKey {
  if (key && isProfileKey(key)) return key;
  const dashed = key?.replace(/-/g, '_');
  const hint = dashed && isProfileKey(dashed) ? `did you mean ${dashed}?` : `keys: ${PROFILE_KEYS.join(', ')}`;
  throw new UsageError(`unknown setting ${JSON.stringify(key)}`, hint);
}
