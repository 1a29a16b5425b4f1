// wes models run <provider/model>: builds the model's input, checks it against the cached schema,
// runs it with the router's retry rules (one Idempotency-Key for every attempt: a call still
// running is collected, never run twice) and prints the output bytes exactly as the router sent
// them; with --queue, submits it for queued delivery instead (features/models/queue.ts) and with --wait
// collects its output (features/models/follow.ts). The validator, the
// spinner and the downloader load only when used: a plain run should start as fast as the
// process can.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { existingPolicy } from '../../files/existing-policy.js';
import type { Factory } from '../../factory.js';
import { ExitCode, UsageError, WesError } from '../../errors.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import { buildInput, type BuiltInput, type InputBytes } from '../../clients/models/input.js';
import { SchemaDocumentError } from '../../protocol/openapi-document.js';
import type { LoadedSchema, SchemaSource } from '../../clients/models/schema-source.js';
import { modelArg, modelsClient, schemaSource } from '../../command-kit/models/context.js';
import { checkTargets, deliverOutput } from './output.js';
import { sendModelCall } from '../../features/models/send.js';
import { resultCommand, runWords } from '../../command-kit/models/again.js';
import { shellWord } from '../../util/shell-word.js';
import { ModelProgressView } from './progress.js';
import { showQueued } from './request-view.js';
import { modelsRunOptions, modelsRunRules, type ModelsRunOptions } from './options.js';
import { transferReporterOn } from '../reporters.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

/** What a model's input is, for text that is not one. */
const INPUT_HINT = 'the model\'s input is a JSON object, e.g. -d \'{"prompt":"a cat"}\' (`wes models schema MODEL` lists its fields)';

async function readInputFile(f: Factory, path: string, flag: string): Promise<InputBytes> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of f.io.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return { bytes: Buffer.concat(chunks), origin: 'standard input' };
  }
  try {
    return { bytes: await readFile(path), origin: path };
  } catch (err) {
    const { whyUnreadable } = await import('../../files/unreadable.js');
    throw new UsageError(`${flag}${path}: cannot read the file: ${whyUnreadable(err)}`);
  }
}

/** -d JSON as typed, or the bytes of the file -d @FILE names (- for standard input), as curl reads it. */
async function dataSource(f: Factory, opts: ModelsRunOptions): Promise<string | InputBytes | undefined> {
  const data = opts.data;
  if (data === undefined || !data.startsWith('@')) return data;
  if (data === '@-' && opts.input === '-') throw new UsageError('--input - and -d @- both read standard input', 'give the input once');
  return readInputFile(f, data.slice(1), '-d @');
}

async function problemsWith(schema: LoadedSchema, input: BuiltInput, f: Factory) {
  const { compileInputValidator } = await import('../../protocol/model-input-validation.js');
  try {
    // The schema checks numbers by value: the exact literals (kept for sending) are read as doubles here.
    return compileInputValidator(schema.doc)(input.plain);
  } catch (err) {
    if (!(err instanceof SchemaDocumentError)) throw err;
    f.io.info(`note: not checking the input locally: ${err.message}`);
    return [];
  }
}

/** Every problem at once; a cached schema that rejects the input is revalidated first, in case it changed. */
async function checkLocally(f: Factory, ref: ModelRef, schemas: SchemaSource, schema: LoadedSchema, input: BuiltInput): Promise<void> {
  let problems = await problemsWith(schema, input, f);
  if (problems.length > 0 && schema.source === 'cache') {
    const current = await schemas.load(ref);
    if (current.source === 'fetched') problems = await problemsWith(current, input, f);
  }
  if (problems.length === 0) return;
  throw new WesError(`the input does not match the schema of ${ref.id} (${problems.length} problem${problems.length === 1 ? '' : 's'}, checked locally; nothing was sent)`, {
    exitCode: ExitCode.REFUSED,
    code: 'invalid_input',
    details: { validation: problems },
    hint: 'fix the fields above, or send the input as it is with --no-validate',
  });
}

/** A pair whose value may name an asset or a file to host (the schema decides, when pairs are typed). */
function namesHostedSource(pair: string): boolean {
  const value = pair.slice(pair.indexOf('=') + 1);
  return value.startsWith('asset:') || value.startsWith('@');
}

const positional = { model: arg('<provider/model>', undefined, { values: { kind: 'models' } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: ModelsRunOptions): Promise<number> {
  const ref = modelArg(args.model);
  const target = { output: opts.output, download: opts.download, show: opts.show, existing: existingPolicy(opts) };
  // An input file is read while the targets are checked; its error, if any, still comes after
  // theirs. Standard input, or a run --skip-existing may skip, is read only once the run is on.
  const early = opts.input !== undefined && opts.input !== '-' && target.existing !== 'skip' ? readInputFile(f, opts.input, '--input ') : undefined;
  early?.catch(() => undefined); // handled: awaited below
  if (!(await checkTargets(f, target, 'the model was not run'))) return 0;
  const pairs = opts.param ?? [];
  const validate = opts.validate;
  const base = early ? await early : opts.input === undefined ? undefined : await readInputFile(f, opts.input, '--input ');
  const data = await dataSource(f, opts);
  const client = modelsClient(f);
  const schemas = schemaSource(f, client);
  // Typing -i pairs needs the schema, so fetch it then; otherwise only a cached copy is used.
  let schema = validate || pairs.length > 0 ? await schemas.cached(ref) : undefined;
  if (!schema && pairs.length > 0) schema = await schemas.load(ref);
  const hostedUrl = pairs.some(namesHostedSource) ? (await import('../../features/models/hosted-url.js')).hostedUrlResolver(f, transferReporterOn(f.io)) : undefined;
  const input = await buildInput({ base, data, pairs, doc: schema?.doc, forSchemaCheck: validate && schema !== undefined, hostedUrl, notJsonHint: INPUT_HINT });
  if (validate && schema) await checkLocally(f, ref, schemas, schema, input);

  const idempotencyKey = opts.idempotencyKey ?? randomUUID();
  const again = [...runWords(ref.id, opts), '--idempotency-key', idempotencyKey].map(shellWord).join(' ');
  const call = (what: string) => ({ key: idempotencyKey, what, again, newKey: 'leave out --idempotency-key' });
  if (opts.queue) {
    const { submitQueued } = await import('../../features/models/queue.js');
    const queued = await submitQueued(f, client, ref, input.bytes, call('the queued submit'), new ModelProgressView(f.io, ref, f.http().retries, idempotencyKey));
    showQueued(f, ref, queued, idempotencyKey, opts.wait === true);
    if (!opts.wait) return 0;
    const id = queued.handle.request_id;
    const resume = resultCommand(ref, id, target);
    const { queuedFollow } = await import('../../features/models/follow.js');
    await queuedFollow(f, client, ref, id, { wait: true, resume, deliver: (fetch) => deliverOutput(f, ref, target, fetch, { queuedRequestId: id }, resume) })(new ModelProgressView(f.io, ref, f.http().retries));
    return 0;
  }
  const controls = { provider: opts.provider, strict: opts.strict, noFallback: !opts.fallback };
  await deliverOutput(
    f,
    ref,
    target,
    (sink) => sendModelCall(f, () => client.runOnce(ref, input.bytes, idempotencyKey, sink, controls), call('the model run'), new ModelProgressView(f.io, ref, f.http().retries, idempotencyKey)),
    { idempotencyKey },
    `the same command with --idempotency-key ${idempotencyKey} (the router hands back the same output)`,
  );
  return 0;
}

export default defineVerb({
  path: ['models', 'run'],
  args: positional,
  options: modelsRunOptions(),
  rules: modelsRunRules,
  help: {
    summary: "Run a model: its own JSON in, its own output out (printed exactly as the router sent it); --queue for queued delivery",
    after: [
      `
Examples:
  $ wes models run dev/echo -d '{"message":"hi"}'
  $ wes models run dev/slow -d '{"duration_ms":5000}' --queue --wait -o slow.json
  $ wes models run dev/caption -i image_url=@cat.png

A field whose schema says format: uri takes asset:ID or @FILE (uploaded as an asset first): the
model gets a URL the service hosts for it, as partner models fetch images themselves.

--provider, --strict and --no-fallback are the synchronous run's (the router's model_provider,
strict_mode and fallback_provider); queued delivery does not take them.`,
    ],
  },
  run,
});
