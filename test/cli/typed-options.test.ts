// Options declared with their type (src/commands/typed-options.ts) are parsed by commander before
// the command runs: a malformed value is a usage error (exit 2) that names the flag, and nothing
// reaches the service; a well-formed value arrives in the verb already typed.
import { describe, expect, it } from 'vitest';
import { flag, valueOption, wholeNumber } from '../../src/commands/typed-options.js';
import { defineVerb } from '../../src/commands/verb.js';
import { useDevServer } from '../helpers/dev-server.js';
import { totalRequests, wesAgainst } from './models-env.js';

const dev = useDevServer();
const wes = wesAgainst(() => dev.server);

describe('typed options', () => {
  it('a malformed --limit or --provider is exit 2, naming the flag and the rule, before any request', async () => {
    const before = totalRequests(dev.server);
    const limit = await wes(['models', 'list', '--limit', 'ten']);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toMatch(/--limit <n>.*'ten' is invalid.*whole number/);
    const provider = await wes(['models', 'list', '--all', '--provider', 'Not_Lower']);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toMatch(/--provider <provider>.*provider segment "Not_Lower" must be lowercase/);
    expect(totalRequests(dev.server)).toBe(before);
  });

  it('well-formed values reach the verb typed: a negative --limit is the router default, --provider filters', async () => {
    const page = await wes(['models', 'list', '--limit', '-3', '--json']);
    expect(page.code, page.stderr).toBe(0);
    expect((JSON.parse(page.stdout) as { limit: number }).limit).toBe(20);
    const dev_ = await wes(['models', 'list', '--all', '--provider', 'dev', '--json']);
    const ids = (JSON.parse(dev_.stdout) as Array<{ provider: string }>).map((m) => m.provider);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set(['dev']));
  });

  it('refuses a declaration whose key is not the option it names', () => {
    const verb = <O>(options: Parameters<typeof defineVerb<Record<string, never>, O>>[0]['options']) => defineVerb({ path: ['x'], args: {}, options, help: { summary: '' }, run: async () => 0 });
    expect(() => verb({ count: valueOption('--limit <n>', 'n', wholeNumber) })).toThrow(/fills "limit", declared as "count"/);
    expect(Object.values(verb({ all: flag('--all', 'every page') }).options).map((o) => o.long)).toEqual(['--all']);
  });
});
