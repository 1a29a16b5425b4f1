import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { SETTING_CHECKS } from '../../config/checks.js';
import { PROFILE_KEYS, SECRET_KEYS } from '../../config/keys.js';
import { parseKey } from './key-arg.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { key: arg('<key>', undefined, { values: { kind: 'choices', choices: PROFILE_KEYS } }), value: arg('<value>') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const key = parseKey(args.key);
  const value = args.value;
  if (value === '') throw new UsageError(`an empty ${key} cannot be stored`, `to remove it: wes config unset ${key}`);
  SETTING_CHECKS[key].check(value, key);
  const profile = f.settings().profile;
  await f.store().set(profile, key, value);
  if (f.io.json) f.io.printJson({ profile, key, set: true });
  f.io.info(`✓ set ${key}${SECRET_KEYS.has(key) ? '' : ` to ${value}`} in profile ${profile}`);
  return 0;
}

export default defineVerb({
  path: ['config', 'set'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Store a setting in the selected profile', after: ['\nExamples:\n  $ wes config set base_url https://api.example.com\n  $ wes --profile edge config set deployment my-deploy'] },
  /** Runs whatever else is stored (it may be the repair), and creates the profile it is given. */
  settingsUse: { tolerateBadValues: true, createsProfile: true },
  run,
});
