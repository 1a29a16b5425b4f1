import type { Factory } from '../../factory.js';
import { PROFILE_KEYS } from '../../config/keys.js';
import { parseKey } from './key-arg.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { key: arg('<key>', undefined, { values: { kind: 'choices', choices: PROFILE_KEYS } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const key = parseKey(args.key);
  const profile = f.settings().profile;
  const removed = await f.store().unset(profile, key);
  if (f.io.json) f.io.printJson({ profile, key, removed });
  f.io.info(removed ? `✓ removed ${key} from profile ${profile}` : `${key} was not set in profile ${profile}`);
  return 0;
}

export default defineVerb({
  path: ['config', 'unset'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Remove a setting from the selected profile', after: ['\nExamples:\n  $ wes config unset router_url'] },
  settingsUse: { tolerateBadValues: true },
  run,
});
