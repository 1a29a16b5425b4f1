// wes workflows templates: the workflow templates the server offers (on an engine, the example
// workflows of its custom node packs), as PACK/NAME; `wes workflows pull --template PACK/NAME` fetches one.
import type { Factory } from '../../factory.js';
import { printTable } from '../../render/table.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { TemplatesClient } from '../../clients/legacy/templates.js';
import { notServed } from '../../command-kit/workflows/templates-not-served.js';
import { noOptions } from '../typed-options.js';
import { defineVerb } from '../verb.js';

async function run(f: Factory): Promise<number> {
  const index = await f.client(TemplatesClient).list();
  if (index === null) throw notServed();
  if (f.io.json) {
    f.io.printJson(index);
    return 0;
  }
  const rows = Object.entries(index).flatMap(([pack, names]) => names.map((name) => [sanitizeLine(`${pack}/${name}`), sanitizeLine(pack)]));
  printTable(f.io, ['template', 'pack'], rows, { keep: [0] });
  f.io.info(rows.length === 0 ? 'the server offers no workflow templates (on an engine: none of its custom node packs has example workflows)' : `${rows.length} template(s); fetch one with: wes workflows pull --template PACK/NAME`);
  return 0;
}

export default defineVerb({
  path: ['workflows', 'templates'],
  args: {},
  options: noOptions(),
  help: { summary: 'List the workflow templates the server offers (an engine: its custom node packs\' example workflows)', after: ['\nExamples:\n  $ wes workflows templates\n  $ wes workflows pull --template comfyui-kjnodes/example -o example.json'] },
  run,
});
