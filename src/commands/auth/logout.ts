// wes auth logout: forgets the credentials of the selected profile; URLs stay.
import type { Factory } from '../../factory.js';
import type { SettingsUse } from '../../config/settings.js';

export const settingsUse: SettingsUse = { tolerateBadValues: true };

export async function run(f: Factory): Promise<number> {
  const store = f.store();
  const profile = f.settings().profile;
  const removed: string[] = [];
  for (const key of ['api_key', 'router_token'] as const) if (await store.unset(profile, key)) removed.push(key);
  if (f.io.json) f.io.printJson({ profile, removed });
  f.io.info(removed.length ? `✓ removed ${removed.join(' and ')} from profile ${profile}` : `profile ${profile} holds no credentials; nothing to remove`);
  return 0;
}
