// The completion model, read from the live commander tree so that completions can never drift
// from the commands: every visible command with its subcommands, options and positional
// arguments, and what kind of value each option or argument takes.
import type { Argument, Command, Option } from 'commander';
import { argumentValue, optionValue, type ValueSpec } from './values.js';
import { visibleOptions, visibleSubcommands } from './tree.js';

export type { ValueSpec } from './values.js';

export interface OptionSpec {
  /** Every spelling: "-q", "--quiet". */
  names: string[];
  description: string;
  /** Absent: a flag that takes no value (or only an optional one). */
  value?: ValueSpec;
}

export interface ArgumentSpec {
  name: string;
  variadic: boolean;
  value: ValueSpec;
}

export interface CommandSpec {
  /** Subcommand words from the root, joined by one space ('' for the root). */
  path: string;
  name: string;
  /** One line for menus. */
  summary: string;
  subcommands: CommandSpec[];
  /** Options this command declares (the root's are global: valid after any subcommand). */
  options: OptionSpec[];
  args: ArgumentSpec[];
}

export interface CompletionSpec {
  /** The program's name as typed ("wes"). */
  program: string;
  root: CommandSpec;
  /** Every command, the root first, parents before their children. */
  commands: CommandSpec[];
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

function optionSpec(path: string, option: Option): OptionSpec {
  const names = [option.short, option.long].filter((n): n is string => Boolean(n));
  const value = option.required ? optionValue(path, option) : undefined;
  return { names, description: firstLine(option.description ?? ''), ...(value ? { value } : {}) };
}

function argumentSpec(root: Command, arg: Argument): ArgumentSpec {
  return { name: arg.name(), variadic: arg.variadic, value: argumentValue(root, arg) };
}

function commandSpec(root: Command, cmd: Command, path: string, inherited: ReadonlySet<string>): CommandSpec {
  const options = visibleOptions(cmd)
    .map((o) => optionSpec(path, o))
    .filter((o) => !o.names.every((n) => inherited.has(n)));
  const seen = new Set([...inherited, ...options.flatMap((o) => o.names)]);
  return {
    path,
    name: cmd.name(),
    summary: firstLine(cmd.summary() || cmd.description()),
    options,
    args: cmd.registeredArguments.map((a) => argumentSpec(root, a)),
    subcommands: visibleSubcommands(cmd).map((sub) => commandSpec(root, sub, path ? `${path} ${sub.name()}` : sub.name(), seen)),
  };
}

export function completionSpec(program: Command): CompletionSpec {
  const root = commandSpec(program, program, '', new Set());
  const commands: CommandSpec[] = [];
  const walk = (c: CommandSpec) => {
    commands.push(c);
    c.subcommands.forEach(walk);
  };
  walk(root);
  return { program: program.name(), root, commands };
}

/** Options valid at a command: its own and every ancestor's (commander reads them anywhere). */
export function optionsInScope(spec: CompletionSpec, path: string): OptionSpec[] {
  const out: OptionSpec[] = [];
  for (const c of spec.commands) if (c.path === '' || c.path === path || path.startsWith(`${c.path} `)) out.push(...c.options);
  return out;
}
