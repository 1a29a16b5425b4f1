// The command tree is built from src/commands/manifest.ts (help, completion and suggestions never
// load a verb), which scripts/command-manifest.mjs generates from the verbs' declarations: a verb
// changed without the manifest written again would show one help and parse another.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
// @ts-expect-error the build's scripts are plain JavaScript
import { manifestSource, MANIFEST_PATH } from '../../scripts/command-manifest.mjs';
import { MANIFEST } from '../../src/commands/manifest.js';
import { buildCommandTree } from '../../src/command-tree.js';

function leaves(cmd: Command, path: string[] = []): string[][] {
  return cmd.commands.flatMap((c) => [...(c.commands.length === 0 || (c as unknown as { _actionHandler: unknown })._actionHandler ? [[...path, c.name()]] : []), ...leaves(c, [...path, c.name()])]);
}

describe('the command manifest', () => {
  it('is what the verbs declare now (run `npm run build` or `node scripts/command-manifest.mjs` after changing one)', async () => {
    expect(readFileSync(MANIFEST_PATH as string, 'utf8')).toBe(await (manifestSource as () => Promise<string>)());
  }, 60_000);

  it('names, for every command of the tree, the verb module that declares that very path', async () => {
    const verbs = MANIFEST.flatMap((g) => g.data().verbs);
    expect(verbs.length).toBeGreaterThan(40);
    for (const data of verbs) {
      const verb = (await data.load()).default;
      expect(verb.path, data.name).toEqual([...data.parent, data.name]);
      expect(Object.keys(verb.args).length, verb.path.join(' ')).toBe(data.args.length);
      expect(Object.keys(verb.options).length, verb.path.join(' ')).toBe(data.options.length);
    }
    const tree = buildCommandTree(() => async () => {});
    expect(leaves(tree).map((p) => p.join(' ')).sort()).toEqual(verbs.map((v) => [...v.parent, v.name].join(' ')).sort());
  });

  it('loads the explainers every group registers for the error path', async () => {
    const explainers = MANIFEST.flatMap((g) => g.explainers);
    expect(explainers.length).toBeGreaterThanOrEqual(2);
    for (const load of explainers) expect(typeof (await load()).explain).toBe('function');
  });
});
