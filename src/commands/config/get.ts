import type { Factory } from '../../factory.js';
import { ENV_FOR_KEY, shownValue } from '../../config/keys.js';
import { parseKey } from './key-arg.js';
import type { ConfigGetOptions } from './options.js';
import type { SettingsUse } from '../../config/settings.js';
import { warnSettingProblems } from './setting-problems.js';

export const settingsUse: SettingsUse = { tolerateBadValues: true };

export async function run(f: Factory, args: string[], opts: ConfigGetOptions): Promise<number> {
  const key = parseKey(args[0]);
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
