import type { Factory } from '../../factory.js';
import { renderTable } from '../../render/table.js';
import { DEFAULT_PROFILE } from '../../config/settings.js';
import { noOptions } from '../typed-options.js';
import { defineVerb } from '../verb.js';

async function run(f: Factory): Promise<number> {
  const store = f.store();
  const active = f.settings().profile;
  const rows = Object.entries(store.profiles()).map(([name, p]) => ({ name, active: name === active, base_url: p.base_url ?? null, has_api_key: Boolean(p.api_key) }));
  // `default` always exists, stored or not, and so does the profile in use.
  for (const name of new Set([active, DEFAULT_PROFILE])) {
    if (!rows.some((r) => r.name === name)) rows.unshift({ name, active: name === active, base_url: null, has_api_key: false });
  }
  if (f.io.json) f.io.printJson(rows);
  else f.io.println(renderTable(f.io, ['', 'name', 'base url', 'api key'], rows.map((r) => [r.active ? '*' : '', r.name, r.base_url ?? '(default)', r.has_api_key ? 'yes' : 'no'])));
  return 0;
}

export default defineVerb({
  path: ['profiles', 'list'],
  args: {},
  options: noOptions(),
  help: { summary: 'List stored profiles; * marks the one in use', after: ['\nExamples:\n  $ wes profiles list\n  $ wes profiles list --json | jq -r ".[].name"'] },
  settingsUse: { tolerateBadValues: true },
  run,
});
