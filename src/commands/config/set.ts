import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { SETTING_CHECKS } from '../../config/checks.js';
import { SECRET_KEYS } from '../../config/keys.js';
import type { SettingsUse } from '../../config/settings.js';
import { parseKey } from './key-arg.js';

/** Runs whatever else is stored (it may be the repair), and creates the profile it is given. */
export const settingsUse: SettingsUse = { tolerateBadValues: true, createsProfile: true };

export async function run(f: Factory, args: string[]): Promise<number> {
  const key = parseKey(args[0]);
  const value = args[1] ?? '';
  if (value === '') throw new UsageError(`an empty ${key} cannot be stored`, `to remove it: wes config unset ${key}`);
  SETTING_CHECKS[key].check(value, key);
  const profile = f.settings().profile;
  await f.store().set(profile, key, value);
  if (f.io.json) f.io.printJson({ profile, key, set: true });
  f.io.info(`✓ set ${key}${SECRET_KEYS.has(key) ? '' : ` to ${value}`} in profile ${profile}`);
  return 0;
}
