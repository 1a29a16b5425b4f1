import type { Factory } from '../../factory.js';
import { effectiveSource, shownSettings, type SettingsUse } from '../../config/settings.js';
import { renderTable } from '../../render/table.js';
import { warnSettingProblems } from './setting-problems.js';

export const settingsUse: SettingsUse = { tolerateBadValues: true };

export async function run(f: Factory): Promise<number> {
  const s = f.settings();
  const rows = shownSettings(s);
  warnSettingProblems(f);
  if (f.io.json) f.io.printJson({ profile: s.profile, settings: rows });
  else f.io.println(renderTable(f.io, ['key', 'value', 'source'], rows.map((r) => [r.key, r.problem ? r.value : r.effective ?? '', effectiveSource(r)])));
  return 0;
}
