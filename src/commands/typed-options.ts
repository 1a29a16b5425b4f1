// Options declared once, with their type: a verb lists its options as `{ name: typedOption }`
// against its own options interface, so the compiler checks that every field has a flag and that
// each flag's parser returns the field's type; commander parses every value (argParser, choices,
// conflicts, implies) before the command runs, so a malformed value or two flags of different
// modes are a usage error (exit 2) before any request. The verb's run function takes the object.
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { ActionFactory, Loader } from './types.js';

/** A commander Option that carries the type its parser produces (a phantom, for the compiler). */
export type TypedOption<T> = Option & { readonly __value?: T };

/** Every field of `O`, each with the option that fills it. */
export type OptionsDeclaration<O> = { [K in keyof O]-?: TypedOption<NonNullable<O[K]>> };

/** A switch (`--all`): true when given. */
export function flag(flags: string, description: string): TypedOption<boolean> {
  return new Option(flags, description);
}

/** An option with a value, parsed by `parse`; its errors (InvalidArgumentError) are usage errors. */
export function valueOption<T>(flags: string, description: string, parse: (raw: string) => T): TypedOption<T> {
  return new Option(flags, description).argParser((raw: string) => parse(raw));
}

/**
 * Adds the declared options to `command` and makes it run `load`'s module, whose run function
 * takes exactly that options type (the compiler holds the two together). Each key must be the
 * option's own attribute name, which building the tree checks.
 */
export function typedCommand<O>(command: Command, declaration: OptionsDeclaration<O>, action: ActionFactory, load: Loader<O>): Command {
  for (const [key, option] of Object.entries(declaration) as Array<[string, Option]>) {
    if (option.attributeName() !== key) throw new Error(`option ${option.flags} fills "${option.attributeName()}", declared as "${key}"`);
    command.addOption(option);
  }
  return command.action(action(load));
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

/** A parser that refuses what `problem` names (a message) and keeps the value otherwise. */
export function checked(problem: (raw: string) => string | undefined): (raw: string) => string {
  return (raw) => {
    const why = problem(raw);
    if (why) throw new InvalidArgumentError(`${why}.`);
    return raw;
  };
}
