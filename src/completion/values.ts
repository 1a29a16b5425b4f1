// What value an option or argument takes, for completion: fixed choices (commander's
// `.choices()`, or a few known lists), profile names read at completion time, local paths, or
// free text that cannot be completed (ids, URLs, numbers).
import type { Argument, Command, Option } from 'commander';
import { PROFILE_KEYS } from '../config/keys.js';
import { HELP_TOPICS } from '../commands/help/topic-names.js';
import { visibleSubcommands } from './tree.js';

const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

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

/** Arguments whose values are known but not declared as commander choices. */
function knownArgument(root: Command, path: string, index: number): ValueSpec | undefined {
  switch (`${path}#${index}`) {
    case 'profiles use#0':
      return { kind: 'profiles' };
    case 'jobs get#0':
    case 'jobs watch#0':
    case 'jobs cancel#0':
    case 'jobs logs#0':
    case 'jobs download#0':
      return { kind: 'dynamic', source: 'jobs' };
    case 'models show#0':
    case 'models schema#0':
    case 'models run#0':
      return { kind: 'dynamic', source: 'models' };
    case 'config get#0':
    case 'config set#0':
    case 'config unset#0':
      return { kind: 'choices', choices: [...PROFILE_KEYS] };
    case 'help#0':
      return { kind: 'choices', choices: [...HELP_TOPICS, ...visibleSubcommands(root).map((c) => c.name()).filter((n) => n !== 'help')] };
    case 'api#0':
      return { kind: 'choices', choices: [...API_METHODS] };
    case 'api#1':
      return { kind: 'text' };
    default:
      return undefined;
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

export function argumentValue(root: Command, path: string, index: number, arg: Argument): ValueSpec {
  if (arg.argChoices?.length) return { kind: 'choices', choices: [...arg.argChoices] };
  return knownArgument(root, path, index) ?? valueFromPlaceholder(arg.name());
}
