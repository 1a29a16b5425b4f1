import type { Factory } from '../../factory.js';
import { shownSettings } from '../../config/settings.js';
import { renderTable } from '../../render/table.js';

export async function run(f: Factory): Promise<number> {
  const s = f.settings();
  const rows = shownSettings(s);
  if (f.io.json) f.io.printJson({ profile: s.profile, settings: rows });
  else f.io.println(renderTable(f.io, ['key', 'value', 'source'], rows.map((r) => [r.key, r.value ?? '', r.source ?? ''])));
  return 0;
}
