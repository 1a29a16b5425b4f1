// wes auth logout: forgets every credential of the selected profile (the secret keys, the partner
// key and token included: a logout that left one would keep spending on the user's account); URLs stay.
import type { Factory } from '../../factory.js';
import { SECRET_KEYS } from '../../config/keys.js';
import { noOptions } from '../typed-options.js';
import { defineVerb } from '../verb.js';

async function run(f: Factory): Promise<number> {
  const store = f.store();
  const profile = f.settings().profile;
  const removed: string[] = [];
  for (const key of SECRET_KEYS) if (await store.unset(profile, key)) removed.push(key);
  if (f.io.json) f.io.printJson({ profile, removed });
  f.io.info(removed.length ? `✓ removed ${removed.length > 1 ? `${removed.slice(0, -1).join(', ')} and ${removed.at(-1)}` : removed[0]} from profile ${profile}` : `profile ${profile} holds no credentials; nothing to remove`);
  return 0;
}

export default defineVerb({
  path: ['auth', 'logout'],
  args: {},
  options: noOptions(),
  help: { summary: 'Remove every stored credential (API key, router credential, engine key, partner key and token) from the selected profile', after: ['\nExamples:\n  $ wes auth logout\n  $ wes --profile staging auth logout'] },
  settingsUse: { tolerateBadValues: true },
  run,
});
