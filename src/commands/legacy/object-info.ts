// wes legacy object-info [CLASS]: every node class as a table, or one class's inputs.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { printTable, renderTable, type Cell } from '../../render/table.js';
import { isRecord, type LegacyClient } from '../../clients/legacy/client.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

function requiredInputs(def: unknown): Record<string, unknown> {
  return isRecord(def) && isRecord(def.input) && isRecord(def.input.required) ? def.input.required : {};
}

function optionalInputs(def: unknown): Record<string, unknown> {
  return isRecord(def) && isRecord(def.input) && isRecord(def.input.optional) ? def.input.optional : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** An input entry is `[TYPE, options]` or `[[choice, ...], options]` (a combo). */
export function describeInput(entry: unknown): { type: string; default: string; bounds: string } {
  const [kind, options] = Array.isArray(entry) ? entry : [];
  const opts = isRecord(options) ? options : {};
  const choices = Array.isArray(kind) ? kind : Array.isArray(opts.options) ? opts.options : null;
  const type = choices ? 'COMBO' : typeof kind === 'string' ? kind : '?';
  let bounds = '';
  if (choices) bounds = choices.map(String).join(' | ');
  else if (opts.min !== undefined || opts.max !== undefined) bounds = `${opts.min ?? ''}..${opts.max ?? ''}`;
  return { type, default: opts.default === undefined ? '' : JSON.stringify(opts.default), bounds };
}

function nearest(name: string, names: string[]): string[] {
  const lower = name.toLowerCase();
  return names.filter((n) => n.toLowerCase().includes(lower) || lower.includes(n.toLowerCase())).slice(0, 3);
}

async function listAll(f: Factory, client: LegacyClient): Promise<number> {
  const info = await client.objectInfo();
  if (f.io.json) {
    f.io.printJson(info);
    return 0;
  }
  const rows: Cell[][] = Object.entries(info).map(([name, def]) => {
    const d = isRecord(def) ? def : {};
    return [name, text(d.display_name), text(d.category), Object.keys(requiredInputs(def)).join(', '), d.output_node === true ? 'yes' : ''];
  });
  printTable(f.io, ['class', 'display name', 'category', 'required inputs', 'output'], rows, { keep: [0], drop: [1], wrap: [3] });
  f.io.info(`${rows.length} node classes`);
  return 0;
}

/** The server answers an unknown class with `{}` (not 404): the whole list then gives suggestions. */
async function noSuchClass(client: LegacyClient, className: string): Promise<WesError> {
  const close = nearest(className, Object.keys(await client.objectInfo()));
  return new WesError(`no such node class ${JSON.stringify(className)} on this server`, {
    exitCode: ExitCode.NOT_FOUND,
    code: 'not_found',
    hint: close.length ? `did you mean ${close.join(', ')}?` : 'list the classes with `wes legacy object-info`',
  });
}

const positional = { className: arg('[class]') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const { client } = await legacyClient(f, 'object-info');
  const className = args.className;
  if (className === undefined) return listAll(f, client);
  const def = await client.objectInfoOf(className);
  if (def === null) throw await noSuchClass(client, className);
  if (f.io.json) {
    f.io.printJson({ [className]: def });
    return 0;
  }
  const rows: Cell[][] = [];
  for (const [group, inputs] of [['required', requiredInputs(def)], ['optional', optionalInputs(def)]] as const) {
    for (const [name, entry] of Object.entries(inputs)) {
      const d = describeInput(entry);
      rows.push([name, d.type, d.default, d.bounds, group]);
    }
  }
  if (rows.length === 0) f.io.info(`${className} takes no inputs`);
  else f.io.println(renderTable(f.io, ['input', 'type', 'default', 'range or choices', 'group'], rows));
  return 0;
}

export default defineVerb({
  path: ['legacy', 'object-info'],
  args: positional,
  options: noOptions(),
  help: { summary: 'List node classes, or show one class\'s inputs (--json: object_info as sent)', after: ['\nExamples:\n  $ wes legacy object-info\n  $ wes legacy object-info Sample\n  $ wes legacy object-info --json | jq keys'] },
  run,
});
