// wes auth logout: forgets the credentials of the selected profile; URLs stay.
import type { Factory } from '../../factory.js';
import { noOptions } from '../typed-options.js';
import { defineVerb } from '../verb.js';

async function run(f: Factory): Promise<number> {
  const store = f.store();
  const profile = f.settings().profile;
  const removed: string[] = [];
  for (const key of ['api_key', 'router_token', 'engine_key'] as const) if (await store.unset(profile, key)) removed.push(key);
  if (f.io.json) f.io.printJson({ profile, removed });
  f.io.info(removed.length ? `✓ removed ${removed.length > 1 ? `${removed.slice(0, -1).join(', ')} and ${removed.at(-1)}` : removed[0]} from profile ${profile}` : `profile ${profile} holds no credentials; nothing to remove`);
  return 0;
}

export default defineVerb({
  path: ['auth', 'logout'],
  args: {},
  options: noOptions(),
  help: { summary: 'Remove the stored API key, router credential and engine key from the selected profile', after: ['\nExamples:\n  $ wes auth logout\n  $ wes --profile staging auth logout'] },
  settingsUse: { tolerateBadValues: true },
  run,
});
