// Writes src/commands/manifest.ts: every command of the tree as data (words, arguments, options,
// help), with the loader of each verb's module and of each group's error explainers. The command
// tree, help, completion and "did you mean" are built from it without loading any verb, so a
// command line loads only the verb it names (src/commands/verb.ts). Read from the sources: the
// groups in src/commands/groups.ts (each folder's group.ts) and their verbs (`export default
// defineVerb(...)`), bundled with esbuild and run. `node scripts/command-manifest.mjs` writes it
// (scripts/build.mjs does, first); `--check` exits 1 when the file differs from what the sources
// give (test/unit/command-manifest.test.ts runs the same comparison).
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const commandsDir = join(root, 'src/commands');
export const MANIFEST_PATH = join(commandsDir, 'manifest.ts');

/** Bundles `entry` (module source) and imports it: every dependency left to node_modules. */
async function run(entry, name) {
  const out = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: `${name}.ts` },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  const dir = join(root, 'node_modules/.cache/wes');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(file, out.outputFiles[0].text);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}

const OPTION_FIELDS_WES_SETS = ['flags', 'description', 'required', 'optional', 'variadic', 'mandatory', 'short', 'long', 'negate', 'defaultValue', 'defaultValueDescription', 'presetArg', 'envVar', 'parseArg', 'hidden', 'argChoices', 'conflictsWith', 'implied', 'helpGroupHeading'];

function plainValue(value, where) {
  if (value === undefined || value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value;
  if (Array.isArray(value)) return value.map((v) => plainValue(v, where));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v, where)]));
  throw new Error(`${where}: a value the manifest cannot hold (${typeof value})`);
}

function optionData(key, option, where) {
  if (option.attributeName() !== key) throw new Error(`${where}: option ${option.flags} fills "${option.attributeName()}", declared as "${key}"`);
  for (const field of Object.keys(option)) if (!OPTION_FIELDS_WES_SETS.includes(field)) throw new Error(`${where}: option ${option.flags} sets ${field}, which the manifest does not carry`);
  if (option.presetArg !== undefined || option.envVar !== undefined || option.helpGroupHeading !== undefined) throw new Error(`${where}: option ${option.flags} uses a commander feature the manifest does not carry (preset, env or help group)`);
  const data = { flags: option.flags, description: option.description };
  if (option.defaultValue !== undefined) data.default = plainValue(option.defaultValue, where);
  if (option.defaultValueDescription !== undefined) data.defaultDescription = option.defaultValueDescription;
  if (option.argChoices) data.choices = [...option.argChoices];
  if (option.conflictsWith.length) data.conflicts = [...option.conflictsWith];
  if (option.implied) data.implies = plainValue(option.implied, where);
  if (option.mandatory) data.mandatory = true;
  if (option.hidden) data.hidden = true;
  return data;
}

function argData(arg) {
  return {
    syntax: arg.syntax,
    ...(arg.description !== undefined ? { description: arg.description } : {}),
    ...(arg.choices ? { choices: [...arg.choices] } : {}),
    ...(arg.values ? { values: plainValue(arg.values, arg.syntax) } : {}),
  };
}

const js = (value) => JSON.stringify(value);

/** The manifest's source text, from the sources as they are now. */
export async function manifestSource() {
  const { GROUPS } = await run(`export { GROUPS } from './src/commands/groups.ts';`, 'command-groups');
  const modules = [];
  for (const [folder, group] of GROUPS) for (const verb of group.verbs) modules.push(`${folder}/${verb}`);
  for (const [folder, group] of GROUPS) {
    for (const file of group.explainers ?? []) if (!existsSync(join(commandsDir, folder, `${file}.ts`))) throw new Error(`src/commands/${folder}/group.ts: no explainer ${file}.ts`);
  }
  const entry = modules.map((m, i) => `import v${i} from './src/commands/${m}.ts';`).join('\n') + `\nexport const VERBS = [${modules.map((_, i) => `v${i}`).join(', ')}];\n`;
  const { VERBS } = await run(entry, 'command-verbs');
  const verbOf = new Map(modules.map((m, i) => [m, VERBS[i]]));

  const lines = [
    '// Generated by scripts/command-manifest.mjs from src/commands/groups.ts, each group.ts and its verbs: do not edit.',
    '// `npm run build` writes it again; test/unit/command-manifest.test.ts fails while it differs from the sources.',
    "import type { ManifestGroup } from './manifest-types.js';",
    '',
    'export const MANIFEST: ManifestGroup[] = [',
  ];
  for (const [folder, group] of GROUPS) {
    const names = new Set();
    const verbs = group.verbs.map((name) => {
      const verb = verbOf.get(`${folder}/${name}`);
      const where = `src/commands/${folder}/${name}.ts`;
      if (!verb || typeof verb.run !== 'function' || !Array.isArray(verb.path)) throw new Error(`${where}: no \`export default defineVerb(...)\``);
      const path = [...verb.path];
      if (group.command ? path[0] !== group.command.name || path.length < 2 : path.length !== 1) throw new Error(`${where}: its path ${path.join(' ')} is not in group ${folder}`);
      names.add(path[0]);
      const help = verb.help;
      return [
        '        {',
        `          name: ${js(path.at(-1))},`,
        `          parent: ${js(path.slice(0, -1))},`,
        `          summary: ${js(help.summary)},`,
        ...(help.group ? [`          group: ${js(help.group)},`] : []),
        ...(help.hidden ? ['          hidden: true,'] : []),
        `          after: ${js([...(help.after ?? [])])},`,
        `          args: ${js(Object.values(verb.args).map(argData))},`,
        `          options: ${js(Object.entries(verb.options).map(([key, option]) => optionData(key, option, where)))},`,
        `          load: () => import('./${folder}/${name}.js'),`,
        '        },',
      ].join('\n');
    });
    if (group.command) names.add(group.command.name);
    const command = group.command && { name: group.command.name, summary: group.command.summary, group: group.command.group, after: [...(group.command.after ?? [])] };
    lines.push(
      '  {',
      `    names: ${js([...names])},`,
      `    explainers: [${(group.explainers ?? []).map((file) => `() => import('./${folder}/${file}.js')`).join(', ')}],`,
      '    data: () => ({',
      ...(command ? [`      command: ${js(command)},`] : []),
      '      verbs: [',
      ...verbs,
      '      ],',
      '    }),',
      '  },',
    );
  }
  lines.push('];', '');
  return lines.join('\n');
}

/** Writes the manifest when the sources give another one; true when it changed. */
export async function writeCommandManifest() {
  const source = await manifestSource();
  const current = existsSync(MANIFEST_PATH) ? readFileSync(MANIFEST_PATH, 'utf8') : undefined;
  if (current === source) return false;
  writeFileSync(MANIFEST_PATH, source);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const current = existsSync(MANIFEST_PATH) ? readFileSync(MANIFEST_PATH, 'utf8') : '';
    if (current !== (await manifestSource())) {
      process.stderr.write('src/commands/manifest.ts differs from the verbs: run node scripts/command-manifest.mjs\n');
      process.exit(1);
    }
  } else if (await writeCommandManifest()) process.stderr.write('wrote src/commands/manifest.ts\n');
}
