// Help quality over the whole live command tree (every command described, every runnable one
// with 1-3 examples), the help topics, "did you mean" for commands and flags at any depth, and
// the first-run connection error.
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import type { Command } from 'commander';
import { buildCommandTree } from '../../src/command-tree.js';
import { runWes } from '../helpers/cli.js';

const program = buildCommandTree(() => async () => {});

function visible(cmd: Command): Command[] {
  return cmd.createHelp().visibleCommands(cmd).filter((c) => cmd.commands.includes(c));
}

function allCommands(cmd: Command): Command[] {
  return visible(cmd).flatMap((c) => [c, ...allCommands(c)]);
}

function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The help a user sees, including text added after the generated part. */
function helpText(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

/** The "$ wes ..." lines of the Examples: block ("" when there is no block). */
function examplesOf(help: string): string[] {
  const block = /^Examples:\n((?: {2}\S.*\n?)+)/m.exec(help)?.[1] ?? '';
  return block.split('\n').filter((l) => l.trim().startsWith('$ wes'));
}

describe('help over the command tree', () => {
  const commands = allCommands(program);

  it('describes every command in one line', () => {
    const missing = commands.filter((c) => !c.description().trim() || c.description().split('\n')[0]!.length > 120).map(fullName);
    expect(missing, `commands without a one-line description: ${missing.join(', ')}`).toEqual([]);
  });

  it('gives every runnable command an Examples: block with 1-3 examples that use it', () => {
    const leaves = commands.filter((c) => visible(c).length === 0);
    expect(leaves.length).toBeGreaterThan(10);
    const lacking: string[] = [];
    for (const cmd of leaves) {
      const examples = examplesOf(helpText(cmd));
      const name = fullName(cmd);
      const words = name.split(' ').slice(1);
      const usesIt = examples.some((e) => words.every((w) => e.includes(w)));
      if (examples.length < 1 || examples.length > 3 || !usesIt) lacking.push(`${name} (${examples.length} examples)`);
    }
    expect(lacking, `commands lacking 1-3 examples of themselves:\n  ${lacking.join('\n  ')}`).toEqual([]);
  });

  it('prints the topics, and a command\'s help through `wes help`', async () => {
    const [codes, env, fmt, sub, bad] = await Promise.all([
      runWes(['help', 'exit-codes']),
      runWes(['help', 'environment']),
      runWes(['help', 'formatting']),
      runWes(['help', 'doctor']),
      runWes(['help', 'nonsense']),
    ]);
    expect(codes.code).toBe(0);
    expect(codes.stdout).toMatch(/^\s+130\s+interrupted/m);
    expect(env.stdout).toContain('WES_CONFIG_DIR');
    expect(env.stdout).toContain('WES_CODE_CACHE=0');
    expect(fmt.stdout).toContain('jq');
    expect(sub.stdout).toContain('Usage: wes doctor');
    expect(bad.code).toBe(2);
  });

  it('with --json or --jq, answers JSON or refuses (exit 2, nothing on stdout): never text where one JSON document was asked for', async () => {
    const codes = await runWes(['help', 'exit-codes', '--jq', '.[0].code']);
    expect(codes).toMatchObject({ code: 0, stdout: '0\n' });
    for (const args of [['help', 'formatting', '--json'], ['help', 'environment', '--jq', '.'], ['help', 'doctor', '--json'], ['completion', 'bash', '--json'], ['completion', 'zsh', '--jq', '.']]) {
      const res = await runWes(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(JSON.parse(res.stderr).error.message).toMatch(/has no JSON form/);
    }
    // A topic or command that is not there is said so first, with or without --json.
    expect(JSON.parse((await runWes(['help', 'nosuch', '--json'])).stderr).error.message).toBe('no help topic or command "nosuch"');
  });

  it('knows only its own topics: names of an object\'s built-in properties are no topics', async () => {
    for (const word of ['toString', 'constructor', '__proto__']) {
      const res = await runWes(['help', word]);
      expect(res.code, word).toBe(2);
      expect(res.stdout).not.toContain('[object');
    }
  });
});

describe('did you mean', () => {
  it('suggests commands and flags at any depth, naming the full command', async () => {
    const [top, nested, flag, nestedFlag] = await Promise.all([
      runWes(['profils']),
      runWes(['config', 'lst']),
      runWes(['doctor', '--jsno']),
      runWes(['dev-server', '--surfce', 'cloud']),
    ]);
    for (const r of [top, nested, flag, nestedFlag]) expect(r.code).toBe(2);
    expect(top.stderr).toContain("unknown command 'profils'");
    expect(top.stderr).toContain('did you mean `wes profiles`?');
    expect(nested.stderr).toContain('did you mean `wes config list`? see `wes config --help`');
    expect(flag.stderr).toContain('did you mean `--json`? see `wes doctor --help`');
    expect(nestedFlag.stderr).toContain('did you mean `--surface`?');
  });

  it('lists the subcommands when a runnable group gets a mistyped one as an argument', async () => {
    const group = allCommands(program).find((c) => visible(c).length > 0 && c.registeredArguments.length === 0 && (c as unknown as { _actionHandler: unknown })._actionHandler);
    if (!group) return;
    const res = await runWes([...fullName(group).split(' ').slice(1), 'xyz']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`its subcommands: ${visible(group).map((c) => c.name()).join(', ')}`);
  });
});

async function portIsFree(port: number): Promise<boolean> {
  const srv = createServer();
  return new Promise((resolve) => {
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
// Something (a user's own `wes dev-server`) may already listen at the default URL.
const defaultPortFree = await portIsFree(8188);

describe('first run', () => {
  it.skipIf(!defaultPortFree)('says the default URL was tried and offers wes dev-server and wes auth login (skipped while something listens on 127.0.0.1:8188, the default)', async () => {
    const res = await runWes(['jobs', 'get', 'some-job', '--retries', '0']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('could not connect to http://127.0.0.1:8188');
    expect(res.stderr).toContain('wes tried http://127.0.0.1:8188, the default base URL');
    expect(res.stderr).toContain('`wes dev-server`');
    expect(res.stderr).toContain('`wes auth login`');
  });

  it('names where a configured URL came from, and suggests wes doctor', async () => {
    const res = await runWes(['api', 'GET', '/api/queue', '--retries', '0'], { env: { WES_BASE_URL: 'http://127.0.0.1:9' } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('wes tried http://127.0.0.1:9, the base URL from WES_BASE_URL');
    expect(res.stderr).toContain('`wes doctor`');
  });
});
