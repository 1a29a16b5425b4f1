import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import type { SettingsUse } from '../config/settings.js';

/**
 * A command's run function: parsed positional arguments, the command's own options (commander's
 * camelCase names; typed `O` where the verb declares them with typed-options.ts), and the command
 * itself (its parents lead to the whole tree, for help and completion). Returns the exit code, or
 * nothing for 0; throws WesError.
 */
export type RunFn<O> = (f: Factory, args: string[], opts: O, command: Command) => Promise<number | void>;
export interface CommandModule<O> {
  run: RunFn<O>;
  /** Whether this run spreads over several base URLs (--base-url repeated); every other command takes one. */
  takesSeveralBaseUrls?: (opts: O) => boolean;
  /** What the command allows of the configured settings (default: every value checked, the profile known). */
  settingsUse?: SettingsUse;
}

/** Loads a command's module when it runs. */
export type Loader<O> = () => Promise<CommandModule<O>>;
/** Turns a loader into the commander action that runs the command (src/program.ts makes it). */
export type ActionFactory = <O>(load: Loader<O>) => (...args: unknown[]) => Promise<void>;

/** The root of the tree a command belongs to. */
export function rootCommand(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}
