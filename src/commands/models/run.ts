// wes models run <provider/model>: builds the model's input, checks it against the cached schema,
// runs it with the router's retry rules (one Idempotency-Key for every attempt) and prints the
// output bytes exactly as the router sent them. The validator, the spinner and the downloader
// load only when used: a plain run should start as fast as the process can.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { existingPolicy, type ExistingPolicy } from '../../files/existing-policy.js';
import type { KeptPart } from '../../files/kept.js';
import { FileExistsError, lstatOrNone, makeFolders, writeFileSafely } from '../../files/safe-file.js';
import { checkFileTarget, checkFolderTarget } from '../../files/targets.js';
import type { Factory } from '../../factory.js';
import { ApiError, ExitCode, UsageError, WesError } from '../../errors.js';
import type { ProgressDisplay } from '../../render/progress.js';
import { sanitize } from '../../render/sanitize.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import { buildInput, type BuiltInput, type InputBytes } from '../../clients/models/input.js';
import { SchemaDocumentError } from '../../protocol/openapi-document.js';
import { runWithRetries, type RunWait } from '../../clients/models/run.js';
import type { ModelsClient, RunAnswer } from '../../clients/models/client.js';
import { AnswerSinkError, type AnswerSink } from '../../http/answer-sink.js';
import { answerFile } from '../../files/answer-file.js';
import type { LoadedSchema, SchemaSource } from '../../clients/models/schema-source.js';
import { modelArg, modelsClient, schemaSource } from './context.js';
import type { ModelsRunOptions } from './options.js';

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

async function waitMessage(ref: ModelRef, wait: RunWait, retries: number): Promise<string> {
  const seconds = Math.max(1, Math.round(wait.delayMs / 1000));
  if (wait.kind === 'collect') {
    return `${ref.id} is still running at the provider; collecting the result in ${seconds} s with the same Idempotency-Key`;
  }
  const err = wait.error;
  let reason = `${err.code}: ${err.message}`;
  const spend = err instanceof ApiError ? (err.details as { committed_spend?: { limit_cents: number; current_cents: number; remaining_cents: number } } | undefined)?.committed_spend : undefined;
  const { cents } = await import('../../render/error.js');
  if (spend) reason += ` (committed spend: limit ${cents(spend.limit_cents)}, in flight ${cents(spend.current_cents)}, remaining ${cents(spend.remaining_cents)})`;
  return `${reason}; retry ${wait.attempt}/${retries} in ${seconds} s`;
}

function writeStdout(f: Factory, bytes: Buffer): Promise<void> {
  // Piped output is the router's bytes unchanged; a terminal gets them without control sequences.
  const data = f.io.stdoutIsTTY ? sanitize(bytes.toString('utf8')).replace(/([^\n])$/, '$1\n') : bytes;
  return new Promise((resolve, reject) => f.io.stdout.write(data, (err) => (err ? reject(err) : resolve())));
}

/** Saves the files the output links to; returns their paths. */
async function saveLinkedFiles(f: Factory, output: Buffer, dir: string, existing: ExistingPolicy, idempotencyKey: string): Promise<string[]> {
  let value: unknown;
  try {
    value = JSON.parse(output.toString('utf8'));
  } catch {
    f.io.notice('note: the output is not JSON; no URLs to download');
    return [];
  }
  const { downloadUrls, outputUrls } = await import('../../clients/models/output-urls.js');
  const urls = outputUrls(value);
  if (urls.length === 0) {
    f.io.info('no URLs in the output to download');
    return [];
  }
  const { reportKept } = await import('../../files/kept.js');
  const kept: KeptPart[] = [];
  const choices = { existing, warn: (line: string) => f.io.warn(line), onKept: (part: KeptPart) => kept.push(part) };
  const saved = await downloadUrls(f.http(), urls, dir, (file) => f.io.info(file.kept ? `kept the existing ${file.path}` : `saved ${file.path} (${file.bytes} bytes)`), choices).finally(() =>
    reportKept(f.io, kept, `the same command with --idempotency-key ${idempotencyKey} (the router hands back the same output)`),
  );
  return saved.map((file) => file.path);
}

/**
 * Output targets, checked before the model runs: a -o file already there stops the run (exit 1)
 * unless --clobber; with --skip-existing the file is kept and the model is not run (returns false).
 */
async function checkTargets(f: Factory, opts: ModelsRunOptions, existing: ExistingPolicy): Promise<boolean> {
  if (opts.download !== undefined) await checkFolderTarget(opts.download, '--download');
  if (opts.output === undefined || opts.output === '-') return true;
  const path = opts.output;
  await checkFileTarget(path, '-o');
  if (!(await lstatOrNone(path)) || existing === 'clobber') return true;
  if (existing === 'refuse') throw new FileExistsError(path);
  f.io.info(`kept the existing ${path} (--skip-existing); the model was not run`);
  return false;
}

/** The words of this run again (its input flags), for the command that collects a result in doubt. */
function runCommand(id: string, opts: ModelsRunOptions): string[] {
  const words = ['wes', 'models', 'run', id];
  if (opts.input !== undefined) words.push('--input', opts.input);
  if (opts.data !== undefined) words.push('-d', opts.data);
  for (const pair of opts.param ?? []) words.push('-i', pair);
  if (opts.output !== undefined) words.push('-o', opts.output);
  return words;
}

/** Runs the model with the router's retry rules, its output into `sink` when given, else into memory. */
async function runModel<B>(f: Factory, client: ModelsClient, ref: ModelRef, opts: ModelsRunOptions, body: Buffer, idempotencyKey: string, sink?: AnswerSink<B>): Promise<RunAnswer<B>> {
  const retries = f.http().retries;
  let progress: ProgressDisplay | undefined;
  return runWithRetries(client, ref, body, {
    idempotencyKey,
    retries,
    signal: f.signal,
    sink,
    onWait: async (wait) => {
      const text = await waitMessage(ref, wait, retries);
      if (progress) return progress.update(text);
      progress = await (await import('../../render/open-progress.js')).openProgressDisplay(f.io, text);
    },
  })
    .catch(async (err: unknown) => {
      // The output file could not be written: the run itself is not in doubt.
      if (err instanceof AnswerSinkError) throw err.cause;
      // The generation may still finish at the provider: the same key collects it.
      const { withIdempotencyKey } = await import('../in-doubt.js');
      throw withIdempotencyKey(err, idempotencyKey, runCommand(ref.id, opts), 'the model run');
    })
    .finally(() => progress?.stop());
}

export async function run(f: Factory, args: string[], opts: ModelsRunOptions): Promise<number> {
  const ref = modelArg(args[0]);
  const existing = existingPolicy(opts);
  // An input file is read while the targets are checked; its error, if any, still comes after
  // theirs. Standard input, or a run --skip-existing may skip, is read only once the run is on.
  const early = opts.input !== undefined && opts.input !== '-' && existing !== 'skip' ? readInputFile(f, opts.input, '--input ') : undefined;
  early?.catch(() => undefined); // handled: awaited below
  if (!(await checkTargets(f, opts, existing))) return 0;
  const pairs = opts.param ?? [];
  const validate = opts.validate;
  const base = early ? await early : opts.input === undefined ? undefined : await readInputFile(f, opts.input, '--input ');
  const data = await dataSource(f, opts);
  const client = modelsClient(f);
  const schemas = schemaSource(f, client);
  // Typing -i pairs needs the schema, so fetch it then; otherwise only a cached copy is used.
  let schema = validate || pairs.length > 0 ? await schemas.cached(ref) : undefined;
  if (!schema && pairs.length > 0) schema = await schemas.load(ref);
  const input = await buildInput({ base, data, pairs, doc: schema?.doc, forSchemaCheck: validate && schema !== undefined });
  if (validate && schema) await checkLocally(f, ref, schemas, schema, input);

  const idempotencyKey = opts.idempotencyKey ?? randomUUID();
  const output = opts.output !== undefined && opts.output !== '-' ? opts.output : undefined;
  if (output !== undefined && opts.download === undefined) {
    // Written into the file as it arrives; --download needs the output in memory, to find its links.
    const written = await runModel(f, client, ref, opts, input.bytes, idempotencyKey, answerFile(output, existing === 'clobber'));
    f.io.info(`wrote the output of ${ref.id} to ${output} (${written.body} bytes)`);
    return 0;
  }
  const answer = await runModel<Buffer>(f, client, ref, opts, input.bytes, idempotencyKey);
  if (output !== undefined) {
    await makeFolders(dirname(output));
    await writeFileSafely(output, answer.body, { replace: existing === 'clobber' });
    f.io.info(`wrote the output of ${ref.id} to ${output} (${answer.body.length} bytes)`);
  } else {
    await writeStdout(f, answer.body);
  }
  if (opts.download !== undefined) {
    const paths = await saveLinkedFiles(f, answer.body, opts.download, existing, idempotencyKey);
    // stdout holds the model's output; the pictures follow it there, their paths are on stderr.
    if (opts.show) await (await import('../../render/pictures/show.js')).showSavedPictures(f.io, paths, false);
  }
  return 0;
}
