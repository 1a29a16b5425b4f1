import type { Factory } from '../../factory.js';
import { ENV_FOR_KEY, PROFILE_KEYS, shownValue } from '../../config/keys.js';
import { parseKey } from './key-arg.js';
import { warnSettingProblems } from './setting-problems.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface ConfigGetOptions {
  reveal?: boolean;
}

const options = (): OptionsDeclaration<ConfigGetOptions> => ({
  reveal: flag('--reveal', 'print a secret in full'),
});

const positional = { key: arg('<key>', undefined, { values: { kind: 'choices', choices: PROFILE_KEYS } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: ConfigGetOptions): Promise<number> {
  const key = parseKey(args.key);
  const s = f.settings();
  warnSettingProblems(f);
  // The URL settings report what commands will use (default and {deployment} applied).
  const value = key === 'base_url' ? s.baseUrl : key === 'router_url' ? s.routerUrl : key === 'engine_url' ? s.engineUrl : s.values[key].value;
  if (value === undefined) {
    if (f.io.json) f.io.printJson({ key, value: null });
    else f.io.notice(`${key} is not set (no flag, no ${ENV_FOR_KEY[key]}, nothing in profile ${s.profile})`);
    return 1;
  }
  const shown = opts.reveal ? value : shownValue(key, value);
  if (f.io.json) f.io.printJson({ key, value: shown });
  else f.io.println(shown);
  return 0;
}

export default defineVerb({
  path: ['config', 'get'],
  args: positional,
  options: options(),
  help: { summary: 'Print the value a setting resolves to', after: ['\nExamples:\n  $ wes config get base_url\n  $ wes config get api_key --reveal'] },
  settingsUse: { tolerateBadValues: true },
  run,
});
