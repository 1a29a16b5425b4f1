import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { isValidProfileName } from '../../config/store.js';
import type { ProfilesUseOptions } from './options.js';
import type { SettingsUse } from '../../config/settings.js';

export const settingsUse: SettingsUse = { tolerateBadValues: true };

export async function run(f: Factory, args: string[], opts: ProfilesUseOptions): Promise<number> {
  const name = args[0]!;
  const store = f.store();
  if (!isValidProfileName(name)) throw new UsageError(`invalid profile name ${JSON.stringify(name)}`, 'use letters, digits, ".", "_" and "-"');
  if (!store.hasProfile(name)) {
    if (!opts.create) {
      const known = Object.keys(store.profiles());
      throw new UsageError(`no profile named ${name}`, known.length ? `profiles: ${known.join(', ')}; or pass --create` : 'create it with --create, or `wes --profile NAME auth login`');
    }
    await store.ensure(name);
  }
  await store.setCurrentProfile(name);
  if (f.io.json) f.io.printJson({ current_profile: name });
  f.io.info(`✓ now using profile ${name}`);
  return 0;
}
