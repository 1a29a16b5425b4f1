// wes models show <provider/model>: one catalog entry.
import type { Factory } from '../../factory.js';
import { renderFields } from '../../render/table.js';
import { modelArg, modelsClient } from './context.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const ref = modelArg(args[0]);
  const detail = await modelsClient(f).show(ref);
  if (f.io.json) {
    f.io.printJson(detail);
    return 0;
  }
  f.io.println(
    renderFields(f.io, [
      ['id', detail.id],
      ['provider', detail.provider],
      ['model', detail.model],
      ['charges on policy rejection', detail.billing.charges_on_policy_rejection],
      ['input schema', detail.input_schema_url ?? '(none published)'],
    ]),
  );
  return 0;
}
