// The command tree, built from src/commands/manifest.ts: each group's commands as data, their
// verbs loaded only when a command line names one (just before commander parses its options, so
// their parsers and rules are in place: attachVerb).
import { Argument, Option, type Command } from 'commander';
import type { ArgData, CommandData, GroupData, OptionData, VerbData } from './manifest-types.js';
import { MANIFEST } from './manifest.js';
import { attachVerb, type ActionFactory, type Verb } from './verb.js';

/** `verb`: the word after the group's, when the command line names one (only that verb is built). */
type Register = (program: Command, action: ActionFactory, verb?: string) => void;

/** The verb behind each command built from the manifest (for the hook that loads it). */
const verbLoaders = new WeakMap<Command, () => Promise<Verb>>();
/** Commands that load their subcommand's verb before it parses. */
const hooked = new WeakSet<Command>();

/** Before commander parses a verb's options: its module loaded, its parsers and rules attached. */
async function loadVerb(_parent: Command, sub: Command): Promise<void> {
  const load = verbLoaders.get(sub);
  if (load) attachVerb(sub, await load());
}

function option(data: OptionData): Option {
  const o = new Option(data.flags, data.description);
  if ('default' in data) o.default(data.default, data.defaultDescription);
  if (data.choices) o.choices(data.choices);
  if (data.conflicts) o.conflicts(data.conflicts);
  if (data.implies) o.implies(data.implies);
  if (data.mandatory) o.makeOptionMandatory();
  if (data.hidden) o.hideHelp();
  return o;
}

function argument(data: ArgData): Argument {
  const a = new Argument(data.syntax, data.description);
  if (data.choices) a.choices(data.choices);
  // Completion reads what values the argument takes (src/completion/values.ts).
  if (data.values) Object.assign(a, { values: data.values });
  return a;
}

function addCommand(parent: Command, data: CommandData): Command {
  const cmd = parent.command(data.name, data.hidden ? { hidden: true } : undefined).description(data.summary);
  if (data.group) cmd.helpGroup(data.group);
  for (const text of data.after) cmd.addHelpText('after', text);
  return cmd;
}

function addVerb(parent: Command, data: VerbData, action: ActionFactory): void {
  const cmd = addCommand(parent, data);
  for (const a of data.args) cmd.addArgument(argument(a));
  for (const o of data.options) cmd.addOption(option(o));
  const load = async () => (await data.load()).default;
  verbLoaders.set(cmd, load);
  cmd.action(action(load));
  if (!hooked.has(parent)) {
    hooked.add(parent);
    parent.hook('preSubcommand', loadVerb);
  }
}

/**
 * The verbs of a group to build: with `only`, the word after the group's own (`jobs get`), that
 * verb and the verbs under it, when the group has a verb of that name; else all of them.
 */
function verbsToBuild(group: GroupData, only: string | undefined): VerbData[] {
  if (only === undefined || !group.command || !group.verbs.some((v) => v.parent.length === 1 && v.name === only)) return group.verbs;
  return group.verbs.filter((v) => (v.parent.length === 1 ? v.name === only : v.parent[1] === only));
}

function addGroup(program: Command, group: GroupData, action: ActionFactory, only?: string): void {
  const top = group.command ? addCommand(program, group.command) : program;
  for (const verb of verbsToBuild(group, only)) {
    let parent = top;
    for (const word of verb.parent.slice(group.command ? 1 : 0)) parent = parent.commands.find((c) => c.name() === word)!;
    addVerb(parent, verb, action);
  }
}

/** Every command group with the top-level command names it adds, in the order help lists them. */
export const COMMAND_GROUPS: ReadonlyArray<{ names: readonly string[]; register: Register }> = MANIFEST.map((g) => ({
  names: g.names,
  register: (program, action, verb) => addGroup(program, g.data(), action, verb),
}));

/** Commands that work on the whole tree (help describes it, completion scripts list it). */
const WHOLE_TREE = new Set(['help', 'completion', '__complete']);

/**
 * Adds the command groups to `program`: every group, or, when the command line names one (`only`,
 * its first word), that group alone, as a command runs only its own group's definitions; of that
 * group, when the next word (`verb`) is one of its verbs, that verb alone (a `jobs get` builds
 * none of the other nine). The help command is always added. help and completion, and any other
 * word (a typo gets suggestions from every name), get the whole tree; a group with a word that is
 * none of its verbs (`jobs gett`, `jobs --help`) gets all its verbs.
 */
export function registerCommands(program: Command, action: ActionFactory, only?: string, verb?: string): void {
  program.helpCommand(false);
  program.commandsGroup('Job API v2:');
  program.commandsGroup('Model router:');
  program.commandsGroup('Cloud API v1 (deprecated):');
  program.commandsGroup('Setup and tools:');
  const named = only === undefined || WHOLE_TREE.has(only) ? undefined : COMMAND_GROUPS.find((g) => g.names.includes(only));
  for (const group of COMMAND_GROUPS) {
    if (!named || group.names.includes('help')) group.register(program, action);
    else if (group === named) group.register(program, action, verb);
  }
}

/** The groups' error explainers, in the groups' order (each loaded when an error is reported). */
export const ERROR_EXPLAINERS = MANIFEST.flatMap((g) => g.explainers);
