// The typed options of `wes models run` (src/commands/models/run.ts); the command that runs it
// again (src/command-kit/models/again.ts) repeats them.
import { InvalidArgumentError } from 'commander';
import { segmentProblem } from '../../protocol/model-ids.js';
import { existingFileOptions, existingFileRules, idempotencyKey, noFileFlagsWithStdout, type ExistingFileOptions } from '../option-values.js';
import { checked, flag, needs, nonEmpty, repeatableOption, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';

export interface ModelsRunOptions extends ExistingFileOptions {
  input?: string;
  data?: string;
  param?: string[];
  idempotencyKey?: string;
  output?: string;
  download?: string;
  /** Draw the pictures --download saved. */
  show?: boolean;
  /** False with --no-validate. */
  validate: boolean;
  /** Queued delivery: submit and print the request id. */
  queue?: boolean;
  /** With --queue: follow the request and collect its output. */
  wait?: boolean;
  /** --provider: an alternate provider to serve the model (the synchronous run only). */
  provider?: string;
  /** --strict: the input is already that provider's own shape (no translation, no fallback). */
  strict?: boolean;
  /** False with --no-fallback: a failure of the model's own provider is not retried on another. */
  fallback: boolean;
}

/**
 * -d must be a JSON object; it is kept as typed (a single source is sent byte for byte, and the
 * exact parser reads it only when merging). Only the shape is checked here: the built-in parser
 * is fast and nests as deep as the exact one, whose errors stay the precise ones. -d @FILE (as in
 * curl) names a file instead, read and checked when the command runs; no JSON object starts with @.
 */
export function jsonObjectText(raw: string): string {
  if (raw.startsWith('@')) {
    if (raw === '@') throw new InvalidArgumentError('@ must be followed by a file name (or - for standard input), e.g. -d @input.json.');
    return raw;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new InvalidArgumentError(`it is not valid JSON (${(err as Error).message}); pass the model's input as one JSON object, e.g. -d '{"prompt":"hi"}'.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidArgumentError(`it must be a JSON object (the model's input), got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}.`);
  return raw;
}

/** One -i KEY=VALUE (the value is typed later, by the schema). */
function inputPair(raw: string): string {
  if (raw.indexOf('=') <= 0) throw new InvalidArgumentError('it must be KEY=VALUE (KEY=@FILE reads a file), e.g. -i prompt="a red fox".');
  return raw;
}

export const modelsRunOptions = (): OptionsDeclaration<ModelsRunOptions> => ({
  input: valueOption('--input <file>', 'the input JSON from a file, or - for standard input', nonEmpty),
  data: valueOption('-d, --data <json>', 'input JSON given inline, or @file to read it from a file (merged over --input)', jsonObjectText),
  param: repeatableOption('-i, --param <key=value>', 'one input field, typed by the schema; key=@file reads a file (a data URI for binary fields); repeatable', inputPair),
  idempotencyKey: valueOption('--idempotency-key <key>', 'key reused on every retry (generated when absent)', idempotencyKey),
  output: valueOption('-o, --output <file>', 'write the output to a file instead of standard output (- for standard output)', nonEmpty),
  download: valueOption('--download <dir>', 'save every http(s) URL found in the output into this folder', nonEmpty),
  show: flag('--show', 'with --download: show the saved pictures (kitty, iTerm2 or sixel terminals)'),
  validate: flag('--no-validate', 'do not check the input against the cached schema first'),
  queue: flag('--queue', 'queued delivery (the published router): submit, print the request id and return at once'),
  wait: flag('--wait', 'with --queue: follow the request (queue position, then status) and collect its output'),
  provider: valueOption('--provider <name>', "an alternate provider to serve the model (the router's model_provider, e.g. fal); the input is translated and what it cannot carry is reported", checked((raw) => segmentProblem('provider', raw))),
  strict: flag('--strict', "with --provider: send the input as that provider's own shape, untranslated (strict_mode=true; no fallback)"),
  fallback: flag('--no-fallback', "refuse a failure of the model's own provider instead of letting the router retry it on another (fallback_provider=false)"),
  ...existingFileOptions(),
});

/** The output comes later with --queue alone: -o, --download and --show need --wait (or `models result`). */
function outputNeedsWait(): OptionsRule<ModelsRunOptions> {
  return ({ opts, given, flag }) => {
    if (!opts.queue || opts.wait) return undefined;
    const target = (['output', 'download', 'show'] as const).find((key) => given(key));
    return target ? `${flag(target)} with --queue needs --wait (or collect the output later with \`wes models result MODEL REQUEST_ID ${flag(target)} ...\`)` : undefined;
  };
}

/** The provider controls are the synchronous route's: the router's queued delivery does not take them. */
function noControlsWithQueue(): OptionsRule<ModelsRunOptions> {
  return ({ opts, given, flag }) => {
    if (!opts.queue) return undefined;
    const control = (['provider', 'strict', 'fallback'] as const).find((key) => given(key));
    return control ? `${flag(control)} applies to the synchronous run only: the router's queued delivery (--queue) takes no provider controls` : undefined;
  };
}

/** The file flags decide about files the run saves: with -o or --download only. */
export const modelsRunRules: Array<OptionsRule<ModelsRunOptions>> = [
  ...existingFileRules<ModelsRunOptions>('output', 'download'),
  needs('show', 'download'),
  needs('wait', 'queue'),
  needs('strict', 'provider'),
  noControlsWithQueue(),
  outputNeedsWait(),
  noFileFlagsWithStdout(),
];

