// A command line that names a command group builds that group alone (registerCommands): this
// checks every group's declared names are the ones it adds, that each group built alone is the
// same as in the whole tree (help, options, arguments, at every depth), and which command lines
// get the whole tree (help, completion, typos, an option commander does not know before the word).
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { buildCommandTree } from '../../src/command-tree.js';
import { COMMAND_GROUPS } from '../../src/commands/registry.js';
import { runWes } from '../helpers/cli.js';

const action = () => async () => {};
const names = (cmd: Command) => cmd.commands.map((c) => c.name());

/** Everything a user can see or give at and below `cmd`: help text, options, arguments, choices. */
function describeTree(cmd: Command): unknown {
  let help = '';
  cmd.configureOutput({ writeOut: (s) => (help += s), writeErr: (s) => (help += s) });
  cmd.outputHelp();
  return {
    help,
    aliases: cmd.aliases(),
    options: cmd.options.map((o) => [o.flags, o.description, o.defaultValue, o.argChoices, o.hidden, o.mandatory]),
    args: cmd.registeredArguments.map((a) => [a.name(), a.required, a.variadic, a.argChoices]),
    commands: cmd.commands.map(describeTree),
  };
}

describe('the command tree built for one command group', () => {
  const whole = buildCommandTree(action);

  it('lists every group with exactly the top-level names it adds', () => {
    const declared = COMMAND_GROUPS.flatMap((g) => g.names);
    expect(new Set(declared).size).toBe(declared.length);
    expect(new Set(whole.commands.flatMap((c) => [c.name(), ...c.aliases()]))).toEqual(new Set(declared));
    for (const group of COMMAND_GROUPS) {
      const alone = new Command('wes');
      group.register(alone, action);
      expect(alone.commands.flatMap((c) => [c.name(), ...c.aliases()]), group.names.join()).toEqual(group.names);
    }
  });

  it('builds the named group (and help) the same as in the whole tree', () => {
    for (const group of COMMAND_GROUPS) {
      for (const name of group.names) {
        const tree = buildCommandTree(action, [name, '--json']);
        if (name === 'help' || name.includes('complet')) {
          expect(names(tree), name).toEqual(names(whole));
          continue;
        }
        const expected = new Set([...group.names, 'help']);
        expect(new Set(names(tree)), name).toEqual(expected);
        for (const top of tree.commands) {
          expect(describeTree(top), `wes ${top.name()}`).toEqual(describeTree(whole.commands.find((c) => c.name() === top.name())!));
        }
        expect(tree.options.map((o) => o.flags)).toEqual(whole.options.map((o) => o.flags));
      }
    }
  });

  it('builds only the verb a command line names in a group (and the verbs under it), the same as in the whole tree', () => {
    const groups = whole.commands.filter((c) => c.commands.length > 0 && !['help', 'completion', '__complete'].includes(c.name()));
    expect(groups.map((c) => c.name())).toContain('jobs');
    for (const group of groups) {
      const built = (argv: string[]) => buildCommandTree(action, argv).commands.find((c) => c.name() === group.name())!;
      for (const verb of group.commands) {
        const alone = built([group.name(), verb.name(), 'x']);
        expect(names(alone), `wes ${group.name()} ${verb.name()}`).toEqual([verb.name()]);
        expect(describeTree(alone.commands[0]!), `wes ${group.name()} ${verb.name()}`).toEqual(describeTree(verb));
      }
      // A word that is none of its verbs (a typo, an option first): every verb, for suggestions and help.
      for (const argv of [[group.name(), 'nope'], [group.name(), '--json', group.commands[0]!.name()], [group.name()]]) {
        expect(names(built(argv)), argv.join(' ')).toEqual(names(group));
      }
    }
  });

  it("finds the command word after the root's options, as commander does", () => {
    const only = (argv: string[]) => names(buildCommandTree(action, argv)).filter((n) => n !== 'help');
    expect(only(['jobs', 'get', 'x'])).toEqual(['jobs']);
    expect(only(['--json', '--profile', 'models', 'jobs', 'get', 'x'])).toEqual(['jobs']);
    expect(only(['--profile=jobs', '-q', 'models', 'list'])).toEqual(['models']);
    expect(only(['--base-url', 'http://a', '--base-url', 'http://b', 'jobs', 'submit'])).toEqual(['jobs']);
    expect(only(['--no-color', 'legacy', 'watch'])).toEqual(['legacy']);
    const all = names(whole).filter((n) => n !== 'help');
    for (const argv of [[], ['jbos'], ['--help', 'jobs'], ['--bogus', 'jobs'], ['--', 'jobs'], ['-qh', 'jobs'], ['--version', 'jobs'], ['help', 'jobs'], ['completion', 'bash'], ['__complete', 'profiles']]) {
      expect(only(argv), argv.join(' ')).toEqual(all);
    }
  });

  it('still suggests a command for a typo at the top and within a group', async () => {
    const top = await runWes(['jbos', 'list']);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('did you mean `wes jobs`?');
    const within = await runWes(['jobs', 'gett', 'x']);
    expect(within.code).toBe(2);
    expect(within.stderr).toContain('did you mean `wes jobs get`?');
  });
});
