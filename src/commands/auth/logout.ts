// wes auth logout: forgets the credentials of the selected profile; URLs stay.
import type { Factory } from '../../factory.js';

export async function run(f: Factory): Promise<number> {
  const store = f.store();
  const profile = f.settings().profile;
  const removed = (['api_key', 'router_token'] as const).filter((k) => store.unset(profile, k));
  if (f.io.json) f.io.printJson({ profile, removed });
  f.io.info(removed.length ? `✓ removed ${removed.join(' and ')} from profile ${profile}` : `profile ${profile} holds no credentials; nothing to remove`);
  return 0;
}
