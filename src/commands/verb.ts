// One verb, one module: `export default defineVerb({path, args, options, rules, help, run})`
// declares a command's words, its positional arguments (typed: the run function gets them by
// name), its options (typed-options.ts), the relations commander cannot declare, its help, and
// what it does. scripts/command-manifest.mjs reads every verb and writes src/commands/manifest.ts,
// from which the command tree, help, completion and "did you mean" are built without loading any
// verb; the verb a command line names is loaded just before commander parses its options
// (attachVerb gives them their parsers and rules).
import { Option, type Command } from 'commander';
import type { Factory } from '../factory.js';
import type { SettingsUse } from '../config/settings.js';
import type { ArgValues } from '../completion/values.js';
import { checkRules, type OptionsDeclaration, type OptionsRule } from './typed-options.js';

/** The value a positional argument's syntax gives: `<x>` a string, `[x]` maybe one, `<x...>` / `[x...]` a list. */
export type ArgValue<S extends string> = S extends `${string}...${'>' | ']'}` ? string[] : S extends `[${string}]` ? string | undefined : string;

/** A positional argument: its syntax (`<id>`, `[dir]`, `<id...>`), what help and completion say of it. */
export interface ArgDeclaration<T> {
  readonly syntax: string;
  readonly description?: string;
  /** Values commander accepts (it refuses others, naming them). */
  readonly choices?: readonly string[];
  /** What completion offers, where the syntax does not say (a placeholder naming a file is a file). */
  readonly values?: ArgValues;
  /** A phantom, for the compiler. */
  readonly __value?: T;
}

export function arg<const S extends string>(syntax: S, description?: string, more: { values?: ArgValues } = {}): ArgDeclaration<ArgValue<S>> {
  return { syntax, ...(description !== undefined ? { description } : {}), ...more };
}

/** A positional argument that takes one of `choices`. */
export function choiceArg<const S extends string, const C extends string>(syntax: S, description: string | undefined, choices: readonly C[]): ArgDeclaration<ArgValue<S> extends string ? C : ArgValue<S>> {
  return { syntax, ...(description !== undefined ? { description } : {}), choices };
}

export type ArgsDeclaration = Record<string, ArgDeclaration<unknown>>;
/** The run function's arguments: each declared one by its name, typed by its syntax. */
export type ArgsOf<A extends ArgsDeclaration> = { -readonly [K in keyof A]: A[K] extends ArgDeclaration<infer T> ? T : never };

export interface VerbHelp {
  /** The one line listed under the parent command. */
  summary: string;
  /** Paragraphs after the options (examples, what the exit codes mean), each printed as given. */
  after?: readonly string[];
  /** The heading a top-level verb is listed under in `wes --help`. */
  group?: string;
  /** Left out of help and completion (`__complete`). */
  hidden?: boolean;
}

export interface VerbSpec<A extends ArgsDeclaration, O> {
  /** The words that name it: `['jobs', 'get']`. */
  path: readonly string[];
  args: A;
  options: OptionsDeclaration<O>;
  /** Relations between options commander cannot declare, checked before the run (a usage error, exit 2). */
  rules?: ReadonlyArray<OptionsRule<O>>;
  help: VerbHelp;
  /** What the command allows of the configured settings (default: every value checked, the profile known). */
  settingsUse?: SettingsUse;
  /** Whether this run spreads over several base URLs (--base-url repeated); every other command takes one. */
  takesSeveralBaseUrls?(opts: O): boolean;
  /**
   * Parsed arguments and options (commander's camelCase names), and the command itself (its
   * parents lead to the whole tree, for help and completion). Returns the exit code, or nothing
   * for 0; throws WesError.
   */
  run(f: Factory, args: ArgsOf<A>, opts: O, command: Command): Promise<number | void>;
}

/** A verb as the tree holds it, whatever its arguments and options (their types erased). */
export type Verb = VerbSpec<ArgsDeclaration, any>;

/** A verb module's declaration; throws when an option's key is not the attribute it fills. */
export function defineVerb<A extends ArgsDeclaration, O>(spec: VerbSpec<A, O>): VerbSpec<A, O> {
  for (const [key, option] of Object.entries(spec.options) as Array<[string, Option]>) {
    if (option.attributeName() !== key) throw new Error(`${spec.path.join(' ')}: option ${option.flags} fills "${option.attributeName()}", declared as "${key}"`);
  }
  return spec;
}

/** The run function's arguments, by name, from what commander parsed (in the declared order). */
export function argsFor(verb: Verb, processed: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(Object.keys(verb.args).map((name, i) => [name, processed[i]]));
}

/**
 * Gives `command` (built from the manifest) what only the verb's module has: each option's parser
 * (commander calls it as it reads the command line) and the rules, checked before the run.
 */
export function attachVerb(command: Command, verb: Verb): void {
  const declared = Object.entries(verb.options) as Array<[string, Option]>;
  for (const [key, option] of declared) {
    const built = command.options.find((o) => o.attributeName() === key);
    if (!built) throw new Error(`${verb.path.join(' ')}: option ${option.flags} is not in src/commands/manifest.ts; run scripts/command-manifest.mjs`);
    built.parseArg = option.parseArg;
  }
  const rules = verb.rules ?? [];
  if (rules.length) command.hook('preAction', (_hooked, cmd) => checkRules(cmd, verb.options as Record<string, Option>, rules));
}

/** Turns a verb's loader into the commander action that runs it (src/program.ts makes it). */
export type ActionFactory = (load: () => Promise<Verb>) => (...args: unknown[]) => Promise<void>;

/** The root of the tree a command belongs to. */
export function rootCommand(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}
