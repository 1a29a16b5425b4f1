// The pieces verbs declare their options with (src/commands/typed-options.ts): value parsers that
// refuse malformed text with commander's InvalidArgumentError, choices, and rules between options
// that commander cannot declare, checked after parsing and before the verb runs (a verb's module
// gives the tree its parsers and rules as it loads: attachVerb in src/commands/verb.ts).
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { choice, flag, needs, wholeNumberIn, type OptionsRule } from '../../src/commands/typed-options.js';
import { attachVerb, defineVerb } from '../../src/commands/verb.js';
import { intervalOption, pollInterval } from '../../src/commands/poll-interval.js';
import { existingFileOptions } from '../../src/commands/option-values.js';

interface Demo {
  wait?: boolean;
  interval?: number;
  kind?: 'a' | 'b';
}

/** Parses argv against a one-verb tree; resolves to the options the verb was run with, or the usage error. */
async function parse(argv: string[], rules: Array<OptionsRule<Demo>> = []): Promise<Demo | CommanderError> {
  let ran: Demo | undefined;
  const root = new Command('t').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} }).option('--api-key <key>', 'global');
  const verb = root.command('verb').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  const action = () => async (...args: unknown[]) => {
    ran = (args[args.length - 1] as Command).opts() as Demo;
  };
  const declaration = {
    wait: flag('--wait', 'wait'),
    interval: intervalOption('seconds'),
    kind: choice('--kind <k>', 'kind', ['a', 'b'] as const).default('a' as const),
  };
  // As the tree does: the options as declared, then the verb's parsers and rules attached.
  for (const option of Object.values(declaration)) verb.addOption(option);
  attachVerb(verb, defineVerb<Record<string, never>, Demo>({ path: ['verb'], args: {}, options: declaration, rules, help: { summary: '' }, run: async () => 0 }));
  verb.action(action());
  try {
    await root.parseAsync(['verb', ...argv], { from: 'user' });
    return ran!;
  } catch (err) {
    if (err instanceof CommanderError) return err;
    throw err;
  }
}

describe('option parsers', () => {
  it('wholeNumberIn keeps numbers in range and names the range otherwise', () => {
    const port = wholeNumberIn(0, 65535);
    expect(port(' 8188 ')).toBe(8188);
    expect(port('0')).toBe(0);
    expect(() => port('65536')).toThrow(/from 0 to 65535/);
    expect(() => port('abc')).toThrow(InvalidArgumentError);
    expect(() => wholeNumberIn(1)('0')).toThrow(/at least 1/);
    expect(wholeNumberIn(1)('12')).toBe(12);
  });

  it('pollInterval takes fractions and refuses zero, negatives and words with one message', () => {
    expect(pollInterval('0.5')).toBe(0.5);
    expect(pollInterval('2')).toBe(2);
    for (const bad of ['0', '-1', 'abc', '', 'Infinity']) expect(() => pollInterval(bad), bad).toThrow('it must be a number of seconds from 0.05 to 3600, e.g. --interval 2.');
  });
});

describe('verb rules and choices', () => {
  it('a well-formed line reaches the verb typed, with the default of a choice', async () => {
    expect(await parse(['--wait', '--interval', '1.5'])).toEqual({ wait: true, interval: 1.5, kind: 'a' });
  });

  it('a value outside the choices is a usage error naming them', async () => {
    const err = await parse(['--kind', 'c']);
    expect(err).toBeInstanceOf(CommanderError);
    expect((err as CommanderError).message).toMatch(/'c' is invalid\. Allowed choices are a, b/);
  });

  it('needs: an option without the one it needs is a usage error (exit 2) naming both flags', async () => {
    const rules = [needs<Demo>('interval', 'wait')];
    const err = await parse(['--interval', '2'], rules);
    expect(err).toBeInstanceOf(CommanderError);
    expect((err as CommanderError).exitCode).toBe(2);
    expect((err as CommanderError).message).toBe('--interval only applies with --wait');
    expect(await parse(['--interval', '2', '--wait'], rules)).toMatchObject({ interval: 2, wait: true });
  });

  it('a default is not "given": rules see only what the user typed, and global flags too', async () => {
    const rule: OptionsRule<Demo> = ({ given, givenGlobal }) => (given('kind') ? 'kind given' : givenGlobal('apiKey') ? 'key given' : undefined);
    expect(await parse([], [rule])).toMatchObject({ kind: 'a' });
    expect(((await parse(['--kind', 'b'], [rule])) as CommanderError).message).toBe('kind given');
    expect(((await parse(['--api-key', 'k'], [rule])) as CommanderError).message).toBe('key given');
  });

  it('--clobber and --skip-existing together are refused by commander before the verb runs', async () => {
    let ran = false;
    const verb = new Command('save').exitOverride().configureOutput({ writeErr: () => {} });
    for (const option of Object.values(existingFileOptions())) verb.addOption(option);
    verb.action(() => {
      ran = true;
    });
    await expect(verb.parseAsync(['--clobber', '--skip-existing'], { from: 'user' })).rejects.toThrow(/'--skip-existing' cannot be used with option '--clobber'/);
    expect(ran).toBe(false);
  });
});
