import type { Factory } from '../../factory.js';
import { effectiveSource, shownSettings } from '../../config/settings.js';
import { renderTable } from '../../render/table.js';
import { warnSettingProblems } from './setting-problems.js';
import { noOptions } from '../typed-options.js';
import { defineVerb } from '../verb.js';

async function run(f: Factory): Promise<number> {
  const s = f.settings();
  const rows = shownSettings(s);
  warnSettingProblems(f);
  if (f.io.json) f.io.printJson({ profile: s.profile, settings: rows });
  else f.io.println(renderTable(f.io, ['key', 'value', 'source'], rows.map((r) => [r.key, r.problem ? r.value : r.effective ?? '', effectiveSource(r)])));
  return 0;
}

export default defineVerb({
  path: ['config', 'list'],
  args: {},
  options: noOptions(),
  help: { summary: 'Show every setting with its value and where it comes from (secrets masked)', after: ['\nExamples:\n  $ wes config list\n  $ wes --profile prod config list --json'] },
  settingsUse: { tolerateBadValues: true },
  run,
});
