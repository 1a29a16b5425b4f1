import type { Factory } from '../../factory.js';
import { parseKey } from './key-arg.js';
import type { SettingsUse } from '../../config/settings.js';

export const settingsUse: SettingsUse = { tolerateBadValues: true };

export async function run(f: Factory, args: string[]): Promise<number> {
  const key = parseKey(args[0]);
  const profile = f.settings().profile;
  const removed = await f.store().unset(profile, key);
  if (f.io.json) f.io.printJson({ profile, key, removed });
  f.io.info(removed ? `✓ removed ${key} from profile ${profile}` : `${key} was not set in profile ${profile}`);
  return 0;
}
