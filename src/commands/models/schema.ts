// wes models schema <provider/model>: the model's input fields, from the cached document when the
// router says it has not changed (304).
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { printTable } from '../../render/table.js';
import { escapeUnsafeJsonText } from '../../util/safe-json.js';
import { SchemaDocumentError } from '../../protocol/openapi-document.js';
import { fieldRows } from '../../clients/models/schema-fields.js';
import { modelArg, schemaSource } from '../../command-kit/models/context.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface ModelsSchemaOptions {
  refresh?: boolean;
}

const modelsSchemaOptions = (): OptionsDeclaration<ModelsSchemaOptions> => ({
  refresh: flag('--refresh', 'ignore the cached copy and fetch the document again'),
});

const positional = { model: arg('<provider/model>', undefined, { values: { kind: 'models' } }) };

const SOURCE_NOTE = { cache: 'from the cache', not_modified: 'cached copy, unchanged on the router (304)', fetched: 'fetched from the router' } as const;

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: ModelsSchemaOptions): Promise<number> {
  const ref = modelArg(args.model);
  const loaded = await schemaSource(f).load(ref, { refresh: opts.refresh === true });
  if (f.io.json) {
    // The document as the router sent it (key order, number precision), terminal-safe.
    const text = escapeUnsafeJsonText(loaded.text);
    f.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    return 0;
  }
  let rows;
  try {
    rows = fieldRows(loaded.doc);
  } catch (err) {
    if (err instanceof SchemaDocumentError) {
      throw new WesError(`the input schema of ${ref.id} cannot be read: ${err.message}`, { exitCode: ExitCode.ERROR, code: 'bad_response', origin: 'models' });
    }
    throw err;
  }
  printTable(f.io, ['name', 'type', 'required', 'default', 'constraints', 'description'], rows.map((r) => [r.name, r.type, r.required ? 'yes' : 'no', r.default, r.constraints, r.description]), { keep: [0], wrap: [4, 5] });
  if (rows.length === 0) f.io.info(`${ref.id} declares no input fields`);
  // Where the schema came from is a diagnostic, not news on every run.
  f.io.debug(`${ref.id} input schema: ${SOURCE_NOTE[loaded.source]}`);
  return 0;
}

export default defineVerb({
  path: ['models', 'schema'],
  args: positional,
  options: modelsSchemaOptions(),
  help: { summary: "Show a model's input fields (cached per profile, revalidated with its ETag)", after: ['\nExamples:\n  $ wes models schema dev/upscale\n  $ wes models schema dev/upscale --json > upscale.openapi.json'] },
  run,
});
