import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { isValidProfileName } from '../../config/store.js';
import { DEFAULT_PROFILE } from '../../config/settings.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface ProfilesUseOptions {
  create?: boolean;
}

const options = (): OptionsDeclaration<ProfilesUseOptions> => ({
  create: flag('--create', 'create the profile when it does not exist'),
});

const positional = { name: arg('<name>', undefined, { values: { kind: 'profiles' } }) };

async function run(f: Factory, { name }: ArgsOf<typeof positional>, opts: ProfilesUseOptions): Promise<number> {
  const store = f.store();
  if (!isValidProfileName(name)) throw new UsageError(`invalid profile name ${JSON.stringify(name)}`, 'use letters, digits, ".", "_" and "-"');
  // `default` always exists (its settings are the built-in ones until something is stored in it).
  if (!store.hasProfile(name) && name !== DEFAULT_PROFILE) {
    if (!opts.create) {
      const known = Object.keys(store.profiles());
      throw new UsageError(`no profile named ${name}`, known.length ? `profiles: ${[DEFAULT_PROFILE, ...known.filter((k) => k !== DEFAULT_PROFILE)].join(', ')}; or pass --create` : 'create it with --create, or `wes --profile NAME auth login`');
    }
    await store.ensure(name);
  }
  await store.setCurrentProfile(name);
  if (f.io.json) f.io.printJson({ current_profile: name });
  f.io.info(`✓ now using profile ${name}`);
  return 0;
}

export default defineVerb({
  path: ['profiles', 'use'],
  args: positional,
  options: options(),
  help: { summary: 'Make a profile the default for later commands', after: ['\nExamples:\n  $ wes profiles use prod\n  $ wes profiles use staging --create'] },
  settingsUse: { tolerateBadValues: true },
  run,
});
