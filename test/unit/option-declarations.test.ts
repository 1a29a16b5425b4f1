// The parsers behind the typed options of jobs, assets and workflows, and one check over the whole
// command tree: every key an option's `conflicts` names is an option of the same command (a typo
// there would silently never refuse anything).
import { Command, InvalidArgumentError, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildCommandTree } from '../../src/command-tree.js';
import { UsageError } from '../../src/errors.js';
import assetsUpload from '../../src/commands/assets/upload.js';
import { pollInterval } from '../../src/commands/poll-interval.js';
import { formatVia, parseVia } from '../../src/features/batch/via-target.js';
import { nonEmpty, repeatableOption } from '../../src/commands/typed-options.js';

function commandsOf(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...commandsOf(c)]);
}

/** Runs an option's parser as commander does for one occurrence. */
function parseWith<T>(option: Option, raw: string, previous?: T): T {
  const parse = option.parseArg as unknown as (value: string, previous: T | undefined) => T;
  return parse.call(option, raw, previous);
}

describe('option declarations', () => {
  it('every conflicts() key names an option of its own command', () => {
    const tree = buildCommandTree(() => async () => {});
    let checked = 0;
    for (const cmd of commandsOf(tree)) {
      const keys = new Set(cmd.options.map((o) => o.attributeName()));
      for (const option of cmd.options) {
        for (const other of (option as Option & { conflictsWith: string[] }).conflictsWith) {
          checked++;
          expect(keys.has(other), `${cmd.name()} ${option.flags} conflicts with "${other}"`).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('--via: a profile or a URL, with its count, written back as given', () => {
    for (const raw of ['gpu-a', 'gpu-a:8', 'http://127.0.0.1:8188', 'https://wes.example/deployment/x,4']) expect(formatVia(parseVia(raw))).toBe(raw);
    expect(parseVia('https://h:1/x,2')).toEqual({ target: 'https://h:1/x', concurrency: 2 });
    expect(() => parseVia('two words')).toThrow(UsageError);
    expect(() => parseVia('gpu:257')).toThrow(/from 1 to 256/);
  });

  it('--interval: seconds from 0.05 to 3600', () => {
    expect(pollInterval('0.05')).toBe(0.05);
    expect(pollInterval('3600')).toBe(3600);
    for (const bad of ['0.01', '3601', 'soon', '']) expect(() => pollInterval(bad), bad).toThrow(InvalidArgumentError);
  });

  it('nonEmpty and repeatable values', () => {
    expect(nonEmpty('out/')).toBe('out/');
    expect(() => nonEmpty('  ')).toThrow(/must not be empty/);
    const via = repeatableOption('--via <x>', 'x', parseVia);
    expect(parseWith(via, 'b:2', parseWith(via, 'a'))).toEqual([{ target: 'a' }, { target: 'b', concurrency: 2 }]);
  });

  it('--content-type: a media type, parameters allowed, no spaces or line breaks in the type', () => {
    const option = assetsUpload.options.contentType;
    for (const good of ['image/png', 'application/vnd.api+json', 'text/plain; charset=utf-8']) expect(parseWith(option, good)).toBe(good);
    for (const bad of ['png', 'image/', 'image png', 'text/plain\r\nX-Evil: 1', '']) expect(() => parseWith(option, bad), JSON.stringify(bad)).toThrow(/media type/);
  });
});
