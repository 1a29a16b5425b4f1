// wes models show <provider/model>: one catalog entry.
import type { Factory } from '../../factory.js';
import { joinBase } from '../../http/links.js';
import { printRecord } from '../../render/table.js';
import { modelPath } from '../../protocol/model-ids.js';
import { modelArg, modelsClient } from '../../command-kit/models/context.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { model: arg('<provider/model>', undefined, { values: { kind: 'models' } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const ref = modelArg(args.model);
  const detail = await modelsClient(f).show(ref);
  printRecord(f.io, detail, () => {
    const schemaUrl = detail.input_schema_url === undefined ? undefined : shownSchemaUrl(detail.input_schema_url, joinBase(f.settings().routerUrl, `${modelPath(ref)}/openapi.json`));
    return [
      ['id', detail.id],
      ['provider', detail.provider],
      ['model', detail.model],
      ['charges on policy rejection', detail.billing.charges_on_policy_rejection],
      ['input schema', schemaUrl ?? '(none published)'],
    ];
  });
  return 0;
}

/**
 * The interface writes the schema URL as https even when the router speaks plain http (a local
 * or self-hosted one): a link to our own router that differs only in scheme is shown as the URL
 * wes itself reads (`wes models schema`), so it can be opened; any other link as published.
 */
export function shownSchemaUrl(published: string, fetched: URL): string {
  try {
    const p = new URL(published);
    return p.host === fetched.host && p.pathname === fetched.pathname && p.protocol !== fetched.protocol ? fetched.href : published;
  } catch {
    return published;
  }
}

export default defineVerb({
  path: ['models', 'show'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Show one catalog entry, with the link to its input schema', after: ['\nExamples:\n  $ wes models show dev/echo\n  $ wes models show dev/echo --json'] },
  run,
});
