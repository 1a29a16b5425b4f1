import type { Factory } from '../../factory.js';
import { PROFILE_KEYS, shownValue } from '../../config/keys.js';
import { describeSource } from '../../config/settings.js';
import { renderTable } from '../../render/table.js';

export async function run(f: Factory): Promise<number> {
  const s = f.settings();
  const rows = PROFILE_KEYS.map((k) => {
    const v = s.values[k];
    const shown = v.value === undefined ? null : shownValue(k, v.value);
    return { key: k, value: shown, source: v.value === undefined ? null : describeSource(v, k) };
  });
  if (f.io.json) f.io.printJson({ profile: s.profile, settings: rows });
  else f.io.println(renderTable(f.io, ['key', 'value', 'source'], rows.map((r) => [r.key, r.value ?? '', r.source ?? ''])));
  return 0;
}
