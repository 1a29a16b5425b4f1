// Completion scripts, generated from the command tree, run in the real shells: every subcommand
// and flag of the live tree is offered, fixed choices and profile names complete, files complete
// where a path is expected, and a hand-edited profile name can never run code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildCommandTree } from '../../src/command-tree.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { COMPLETIONS_DIR, bashComplete, bashCompleteEach, fishComplete, hasShell, shellEnv, zshComplete, type ShellEnv } from './completion-shells.js';

const program = buildCommandTree(() => async () => {});
const bashScript = join(COMPLETIONS_DIR, 'wes.bash');
const zshScript = join(COMPLETIONS_DIR, 'wes.zsh');
const fishScript = join(COMPLETIONS_DIR, 'wes.fish');

function visible(cmd: Command): Command[] {
  return cmd.createHelp().visibleCommands(cmd).filter((c) => cmd.commands.includes(c));
}

function pathOf(cmd: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words;
}

function allCommands(cmd: Command): Command[] {
  return visible(cmd).flatMap((c) => [c, ...allCommands(c)]);
}

function longFlags(cmd: Command): string[] {
  return cmd.createHelp().visibleOptions(cmd).flatMap((o) => (o.long ? [o.long] : []));
}

let cfg: ReturnType<typeof tempConfigDir>;
let sh: ShellEnv;

beforeAll(() => {
  cfg = tempConfigDir();
  const work = join(cfg.dir, 'work');
  mkdirSync(join(work, 'flows'), { recursive: true });
  writeFileSync(join(work, 'flow.json'), '{}');
  // Profiles as `wes` stores them, plus one a person typed into the file by hand.
  writeFileSync(
    join(cfg.dir, 'config.json'),
    JSON.stringify({ current_profile: 'prod', profiles: { prod: {}, 'staging-eu': {}, '$(touch PWNED)': {} } }),
    { mode: 0o600 },
  );
  sh = shellEnv(cfg.dir, work);
});
afterAll(() => {
  sh?.cleanup();
  cfg?.cleanup();
});

describe('wes completion', () => {
  it('prints, for each shell, exactly the script the build put in completions/', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const res = await runWes(['completion', shell]);
      expect(res.code).toBe(0);
      expect(res.stdout).toBe(readFileSync(join(COMPLETIONS_DIR, `wes.${shell}`), 'utf8'));
    }
  });

  it('refuses an unknown shell with a usage error naming the choices', async () => {
    const res = await runWes(['completion', 'tcsh']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('bash, zsh, fish');
  });

  it('answers __complete profiles with valid stored names only, and stays out of help', async () => {
    const res = await runWes(['__complete', 'profiles'], { configDir: cfg.dir });
    // 'default' is always offered: it is the profile in use when none is chosen.
    expect(res.stdout.split('\n').filter(Boolean)).toEqual(['default', 'prod', 'staging-eu']);
    expect((await runWes(['--help'])).stdout).not.toContain('__complete');
  });
});

describe.skipIf(!hasShell('bash'))('bash (skipped where bash is not installed)', () => {
  it('offers every visible subcommand of every group in the live command tree', () => {
    const groups = [program, ...allCommands(program)].filter((c) => visible(c).length);
    expect(groups.length).toBeGreaterThan(3);
    const replies = bashCompleteEach(bashScript, groups.map((group) => ['wes', ...pathOf(group), '']), sh);
    for (const [i, group] of groups.entries()) {
      expect(replies[i], `wes ${pathOf(group).join(' ')}`).toEqual(visible(group).map((c) => c.name()));
    }
  });

  it('offers every flag of every command, with the global ones', () => {
    const globals = longFlags(program);
    const commands = allCommands(program);
    const replies = bashCompleteEach(bashScript, commands.map((cmd) => ['wes', ...pathOf(cmd), '--']), sh);
    for (const [i, cmd] of commands.entries()) {
      for (const flag of [...longFlags(cmd), ...globals]) expect(replies[i], `wes ${pathOf(cmd).join(' ')} --`).toContain(flag);
    }
  });

  it('completes a prefix, fixed choices, and --flag=value', () => {
    expect(bashComplete(bashScript, ['wes', 'pro'], sh)).toEqual(['profiles']);
    expect(bashComplete(bashScript, ['wes', 'dev-server', '--surface', ''], sh)).toEqual(['cloud', 'serverless', 'self-hosted']);
    expect(bashComplete(bashScript, ['wes', 'dev-server', '--surface', '=', 'se'], sh)).toEqual(['serverless', 'self-hosted']);
    expect(bashComplete(bashScript, ['wes', 'api', '--surface', ''], sh)).toEqual(['jobs', 'models', 'legacy']);
    expect(bashComplete(bashScript, ['wes', 'completion', ''], sh)).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete(bashScript, ['wes', 'config', 'get', 'ba'], sh)).toEqual(['base_url']);
    expect(bashComplete(bashScript, ['wes', 'help', 'exit'], sh)).toEqual(['exit-codes']);
  });

  it('completes legacy --type from its declared choices when the legacy group is present', () => {
    const view = program.commands.find((c) => c.name() === 'legacy')?.commands.find((c) => c.name() === 'view');
    if (!view) return;
    expect(bashComplete(bashScript, ['wes', 'legacy', 'view', 'out.png', '--type', ''], sh)).toEqual(expect.arrayContaining(['output', 'temp']));
  });

  it('keeps track of flags that take a value while finding the command', () => {
    expect(bashComplete(bashScript, ['wes', '--profile', 'prod', '--json', 'profiles', ''], sh)).toEqual(['list', 'use']);
    expect(bashComplete(bashScript, ['wes', '--base-url', 'http://x', 'completion', 'z'], sh)).toEqual(['zsh']);
  });

  it('completes profile names from the config file, and never runs a hand-edited one', () => {
    expect(bashComplete(bashScript, ['wes', '--profile', ''], sh)).toEqual(['default', 'prod', 'staging-eu']);
    expect(bashComplete(bashScript, ['wes', 'profiles', 'use', 'st'], sh)).toEqual(['staging-eu']);
    expect(existsSync(join(sh.cwd, 'PWNED'))).toBe(false);
  });

  it('completes local files where a path is expected, and nothing for ids', () => {
    expect(bashComplete(bashScript, ['wes', 'completion', 'bash', 'x'], sh)).toEqual([]);
    const jobs = program.commands.find((c) => c.name() === 'jobs');
    if (jobs) {
      expect(bashComplete(bashScript, ['wes', 'jobs', 'submit', 'fl'], sh).sort()).toEqual(['flow.json', 'flows']);
      expect(bashComplete(bashScript, ['wes', 'jobs', 'get', 'fl'], sh)).toEqual([]);
    }
    expect(bashComplete(bashScript, ['wes', 'api', 'POST', '/api/prompt', '--input', 'fl'], sh).sort()).toEqual(['flow.json', 'flows']);
  });
});

describe.skipIf(!hasShell('zsh'))('zsh (skipped where zsh is not installed)', () => {
  it('loads without error and offers subcommands, flags, choices and profiles', () => {
    expect(zshComplete(zshScript, ['wes', ''], sh)).toEqual(visible(program).map((c) => c.name()));
    expect(zshComplete(zshScript, ['wes', 'dev-server', '--surface', ''], sh)).toEqual(['cloud', 'serverless', 'self-hosted']);
    expect(zshComplete(zshScript, ['wes', 'api', '--'], sh)).toEqual(expect.arrayContaining(['--paginate', '--include', '--json']));
    expect(zshComplete(zshScript, ['wes', 'profiles', 'use', ''], sh)).toEqual(['default', 'prod', 'staging-eu']);
    expect(zshComplete(zshScript, ['wes', 'api', 'GET', '/x', '--input', ''], sh)).toEqual(['<files >']);
  });
});

describe.skipIf(!hasShell('fish'))('fish (skipped where fish is not installed)', () => {
  it('loads without error and offers subcommands, flags, choices and profiles', () => {
    expect(fishComplete(fishScript, 'wes ', sh).sort()).toEqual(visible(program).map((c) => c.name()).sort());
    expect(fishComplete(fishScript, 'wes dev-server --surface ', sh).sort()).toEqual(['cloud', 'self-hosted', 'serverless']);
    expect(fishComplete(fishScript, 'wes dev-server --surface=se', sh).sort()).toEqual(['--surface=self-hosted', '--surface=serverless']);
    expect(fishComplete(fishScript, 'wes doctor --js', sh)).toEqual(['--json']);
    expect(fishComplete(fishScript, 'wes --profile ', sh)).toEqual(['default', 'prod', 'staging-eu']);
    expect(fishComplete(fishScript, 'wes api POST /api/prompt --input fl', sh).sort()).toEqual(['flow.json', 'flows/']);
  });
});
