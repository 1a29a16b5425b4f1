// What value an option or argument takes, for completion: fixed choices (commander's
// `.choices()`, or what a verb declares of its argument), profile names read at completion time,
// local paths, or free text that cannot be completed (ids, URLs, numbers).
import type { Argument, Command, Option } from 'commander';
import { visibleSubcommands } from './tree.js';

export type ValueSpec =
  | { kind: 'choices'; choices: string[] }
  /** Profile names from the config file, asked of `wes __complete profiles` when completing. */
  | { kind: 'profiles' }
  /** Values asked of `wes __complete <source>` when completing: job ids from the history, cached model ids. */
  | { kind: 'dynamic'; source: 'jobs' | 'models' | 'set' }
  | { kind: 'file' }
  | { kind: 'dir' }
  | { kind: 'text' };

const PROFILE_OPTIONS = new Set(['--profile']);

/**
 * What a verb declares its positional argument takes (src/commands/verb.ts, carried on the
 * argument by the manifest): job ids from the history, cached model ids, profile names, fixed
 * choices, the help topics with the command names, or free text.
 */
export type ArgValues =
  | { kind: 'jobs' | 'models' | 'profiles' | 'text' }
  | { kind: 'choices'; choices: readonly string[] }
  | { kind: 'help-topics'; topics: readonly string[] };

function declared(root: Command, values: ArgValues): ValueSpec {
  switch (values.kind) {
    case 'jobs':
    case 'models':
      return { kind: 'dynamic', source: values.kind };
    case 'profiles':
      return { kind: 'profiles' };
    case 'text':
      return { kind: 'text' };
    case 'choices':
      return { kind: 'choices', choices: [...values.choices] };
    case 'help-topics':
      return { kind: 'choices', choices: [...values.topics, ...visibleSubcommands(root).map((c) => c.name()).filter((n) => n !== 'help')] };
  }
}

const WORD = (words: string) => new RegExp(`(^|[^a-z])(${words})([^a-z]|$)`, 'i');
const DIR_WORDS = WORD('dir|directory|folder');
const FILE_WORDS = WORD('file|path|workflow');

/**
 * A placeholder naming a local path ("<file>", "<workflow>", "[dir]", "<out.png>") means local
 * files; server-side names ("<filename>", "<subfolder>") and anything else are free text.
 */
export function valueFromPlaceholder(placeholder: string): ValueSpec {
  if (DIR_WORDS.test(placeholder)) return { kind: 'dir' };
  if (FILE_WORDS.test(placeholder) || /\.[a-z0-9]+$/i.test(placeholder)) return { kind: 'file' };
  return { kind: 'text' };
}

function placeholderOf(flags: string): string {
  return /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1] ?? '';
}

export function optionValue(_path: string, option: Option): ValueSpec {
  if (option.argChoices?.length) return { kind: 'choices', choices: [...option.argChoices] };
  if (option.long && PROFILE_OPTIONS.has(option.long)) return { kind: 'profiles' };
  // NODE.INPUT= targets, read from the workflow file given as the command's first operand.
  if (option.long === '--set') return { kind: 'dynamic', source: 'set' };
  return valueFromPlaceholder(placeholderOf(option.flags));
}

export function argumentValue(root: Command, arg: Argument & { values?: ArgValues }): ValueSpec {
  if (arg.argChoices?.length) return { kind: 'choices', choices: [...arg.argChoices] };
  return arg.values ? declared(root, arg.values) : valueFromPlaceholder(arg.name());
}
