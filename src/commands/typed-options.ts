// Options declared once, with their type: a verb (src/commands/verb.ts) lists its options as
// `{ name: typedOption }` against its own options interface, so the compiler checks that every
// field has a flag and that each flag's parser returns the field's type; commander parses every
// value (argParser, choices, conflicts, implies) before the command runs, so a malformed value or
// two flags of different modes are a usage error (exit 2) before any request. The verb's run
// function takes the object.
import { InvalidArgumentError, Option, type Command } from 'commander';

/** A commander Option that carries the type its parser produces (a phantom, for the compiler). */
export type TypedOption<T> = Option & { readonly __value?: T };

/** Every field of `O`, each with the option that fills it. */
export type OptionsDeclaration<O> = { [K in keyof O]-?: TypedOption<NonNullable<O[K]>> };

/** A verb with no options of its own (the global ones only). */
export type NoOptions = Record<never, never>;
export const noOptions = (): OptionsDeclaration<NoOptions> => ({});

/** A switch (`--all`): true when given. */
export function flag(flags: string, description: string): TypedOption<boolean> {
  return new Option(flags, description);
}

/** An option with a value, parsed by `parse`; its errors (InvalidArgumentError) are usage errors. */
export function valueOption<T>(flags: string, description: string, parse: (raw: string) => T): TypedOption<T> {
  return new Option(flags, description).argParser((raw: string) => parse(raw));
}

/** A repeatable option with a value (`--via a --via b`): each occurrence parsed by `parse`, in order. */
export function repeatableOption<T>(flags: string, description: string, parse: (raw: string) => T): TypedOption<T[]> {
  return new Option(flags, description).argParser((raw: string, previous: T[] | undefined) => [...(previous ?? []), parse(raw)]);
}

/** One of a fixed set of values (commander's `choices`, which names them on a wrong one). */
export function choice<const T extends string>(flags: string, description: string, values: readonly T[]): TypedOption<T> {
  return new Option(flags, description).choices(values);
}

/** What a rule sees: the parsed options, and which of them the user gave (not defaults). */
export interface OptionsCheck<O> {
  opts: O;
  /** Given on the command line (or implied by one given there), as opposed to a default. */
  given(key: keyof O): boolean;
  /** A global option (`--api-key`) given on the command line. */
  givenGlobal(key: string): boolean;
  /** The long flag that fills `key`, for messages. */
  flag(key: keyof O): string;
}

/**
 * A relation commander cannot declare (an option that needs another, a value that excludes an
 * option): the problem as a usage message, or undefined. Checked after parsing, before the run.
 */
export type OptionsRule<O> = (check: OptionsCheck<O>) => string | undefined;

/** `key` means something only beside one of `anyOf`. */
export function needs<O>(key: keyof O, ...anyOf: Array<keyof O>): OptionsRule<O> {
  return ({ given, flag }) => (given(key) && !anyOf.some(given) ? `${flag(key)} only applies with ${anyOf.map(flag).join(' or ')}` : undefined);
}

/** The rules of a verb, checked after parsing, before its run: a broken one is a usage error (exit 2). */
export function checkRules<O>(cmd: Command, declaration: Record<string, Option>, rules: ReadonlyArray<OptionsRule<O>>): void {
  const fromUser = (source: string | undefined) => source !== undefined && source !== 'default';
  const check: OptionsCheck<O> = {
    opts: cmd.opts() as O,
    given: (key) => fromUser(cmd.getOptionValueSource(key as string)),
    givenGlobal: (key) => fromUser(cmd.getOptionValueSourceWithGlobals(key)),
    flag: (key) => declaration[key as string]!.long ?? String(key),
  };
  for (const rule of rules) {
    const problem = rule(check);
    if (problem) cmd.error(problem, { exitCode: 2, code: 'wes.optionRule' });
  }
}

/** A whole number (sign allowed: the router serves 0 and negatives with its default). */
export function wholeNumber(raw: string): number {
  const text = raw.trim();
  if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError('it must be a whole number.');
  const value = Number(text);
  // Beyond 2^53 the number would be rounded and sent as "1e+23", which the router refuses after a request.
  if (!Number.isSafeInteger(value)) throw new InvalidArgumentError(`it must be a whole number between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`);
  return value;
}

/** A whole number from `min` to `max`, for counts, ports and durations. */
export function wholeNumberIn(min: number, max = Number.MAX_SAFE_INTEGER): (raw: string) => number {
  return (raw) => {
    const value = wholeNumber(raw);
    if (value < min || value > max) throw new InvalidArgumentError(max === Number.MAX_SAFE_INTEGER ? `it must be a whole number of at least ${min}.` : `it must be a whole number from ${min} to ${max}.`);
    return value;
  };
}

/** A value that must not be empty (a file name, a key): `--results ''` is a slip, not a name. */
export function nonEmpty(raw: string): string {
  if (raw.trim() === '') throw new InvalidArgumentError('it must not be empty.');
  return raw;
}

/** A parser that refuses what `problem` names (a message) and keeps the value otherwise. */
export function checked(problem: (raw: string) => string | undefined): (raw: string) => string {
  return (raw) => {
    const why = problem(raw);
    if (why) throw new InvalidArgumentError(`${why}.`);
    return raw;
  };
}
