// Running a workflow saved on the server by name: `legacy prompt --saved NAME` against the
// imitation of ComfyUI 0.3.18 and 0.3.64, `jobs submit --saved NAME` against the cloud. The saved
// UI-format workflow (EmptyImage -> SaveImage, its widgets laid out from the server's own
// object_info, so it fits the dev-server's node set as it grows) is converted with the server's
// node definitions as --convert does, --set applies to the converted graph, it runs to a real
// output, and the graph that ran is the job's own: `jobs workflow` and `jobs rerun` give it.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { ENGINE_VERSIONS } from '../../src/dev-server/contract.js';
import { startFast } from '../helpers/dev-server.js';
import { tempConfigDir } from '../helpers/cli.js';
import { v1 } from '../dev-server/legacy-kit.js';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

type Info = Record<string, { input: { required: Record<string, unknown[]> }; input_order: { required: string[] } }>;
const WIDGET_TYPES = new Set(['INT', 'FLOAT', 'STRING', 'BOOLEAN']);

/** The widget inputs of a class in order, each with `given` or its default. */
function widgets(info: Info, cls: string, given: Record<string, unknown>): Array<[string, unknown]> {
  const def = info[cls]!;
  return def.input_order.required
    .filter((name) => {
      const type = def.input.required[name]![0];
      return Array.isArray(type) || WIDGET_TYPES.has(type as string);
    })
    .map((name) => [name, name in given ? given[name] : (def.input.required[name]![1] as { default?: unknown } | undefined)?.default]);
}

/** A UI-format EmptyImage -> SaveImage, as the editor saves it, and the API format it converts to. */
async function savedAndConverted(server: DevServerHandle): Promise<{ ui: string; api: Record<string, { inputs: Record<string, unknown> }> }> {
  const info = (await v1(server, 'GET', '/api/object_info')).body as Info;
  const empty = widgets(info, 'EmptyImage', { width: 32, height: 32, batch_size: 1, color: 4660 });
  const save = widgets(info, 'SaveImage', { filename_prefix: 'saved' });
  const ui = {
    last_node_id: 3, last_link_id: 1,
    nodes: [
      { id: 1, type: 'EmptyImage', mode: 0, inputs: [], outputs: [{ name: 'IMAGE', type: 'IMAGE', links: [1] }], widgets_values: empty.map(([, v]) => v) },
      { id: 3, type: 'SaveImage', mode: 0, inputs: [{ name: 'images', type: 'IMAGE', link: 1 }], outputs: [], widgets_values: save.map(([, v]) => v) },
    ],
    links: [[1, 1, 0, 3, 0, 'IMAGE']], groups: [], config: {}, extra: {}, version: 0.4,
  };
  return {
    ui: JSON.stringify(ui),
    api: { '1': { inputs: Object.fromEntries(empty) }, '3': { inputs: { ...Object.fromEntries(save), images: ['1', 0] } } },
  };
}

function useServer(options: Parameters<typeof startFast>[0]) {
  let server: DevServerHandle;
  let config: ReturnType<typeof tempConfigDir>;
  beforeAll(async () => {
    server = await startFast({ stepMs: 3, ...options });
    config = tempConfigDir();
  });
  afterAll(async () => {
    config.cleanup();
    await server.close();
  });
  const run = wesAgainst(() => server);
  return { server: () => server, wes: (args: string[]) => run(args, { configDir: config.dir }) };
}

for (const version of ENGINE_VERSIONS) {
  describe(`legacy prompt --saved on the imitation of ComfyUI ${version}`, () => {
    const dir = useTempDir();
    const { server, wes } = useServer({ deployment: 'self-hosted', engineOnly: true, engineVersion: version });

    it('converts the saved UI-format workflow, applies --set, and runs it to a saved output', async () => {
      const { ui, api } = await savedAndConverted(server());
      const local = join(dir(), `${version}.json`);
      writeFileSync(local, ui);
      expect((await wes(['workflows', 'push', local, '--name', 'saved run'])).code).toBe(0);
      const out = join(dir(), `out-${version}`);
      const res = await wes(['legacy', 'prompt', '--saved', 'saved run', '--set', '1.color=4661', '--set', '3.filename_prefix="from-saved"', '--ws', '--download', out]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/converted the saved workflow "saved run\.json" from the UI format: 2 node\(s\)/);
      expect(readdirSync(out).some((name) => name.startsWith('from-saved'))).toBe(true);
      const id = res.stdout.trim().split('\n')[0]!;
      const history = (await v1(server(), 'GET', `/api/history/${id}`)).body[id];
      const ran = history.prompt[2] as Record<string, { inputs: Record<string, unknown> }>;
      expect(ran['1']!.inputs).toEqual({ ...api['1']!.inputs, color: 4661 });
      expect(ran['3']!.inputs).toEqual({ ...api['3']!.inputs, filename_prefix: 'from-saved' });
    });

    it('--set NODE.INPUT=@FILE uploads the file as an input image and sends its name; asset:ID is refused', async () => {
      const image = join(dir(), `cat-${version}.png`);
      writeFileSync(image, encodePng({ width: 2, height: 2, data: new Uint8Array(12) }));
      const flow = join(dir(), `load-${version}.json`);
      writeFileSync(flow, JSON.stringify({ '1': { class_type: 'LoadImage', inputs: { image: 'x.png' } }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'loaded' } } }));
      const res = await wes(['legacy', 'prompt', flow, '--set', `1.image=@${image}`, '--wait']);
      expect(res.stderr).toMatch(new RegExp(`uploaded .*cat-${version.replace(/\./g, '\\.')}\\.png as cat-`));
      const id = res.stdout.trim().split('\n')[0]!;
      const history = (await v1(server(), 'GET', `/api/history/${id}`)).body[id];
      expect(history.prompt[2]['1'].inputs.image).toBe(`cat-${version}.png`);
      const refused = await wes(['legacy', 'prompt', flow, '--set', '1.image=asset:0b3c']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/job API v2 asset/);
    });

    it('a file and --saved together, or --saved with --convert, are usage errors; an unknown name is exit 5', async () => {
      expect((await wes(['legacy', 'prompt', 'x.json', '--saved', 'saved run'])).code).toBe(2);
      expect((await wes(['legacy', 'prompt', '--saved', 'saved run', '--convert'])).code).toBe(2);
      expect((await wes(['legacy', 'prompt'])).code).toBe(2);
      const missing = await wes(['legacy', 'prompt', '--saved', 'nope']);
      expect(missing.code).toBe(5);
      expect(missing.stderr).toMatch(/no saved workflow "nope\.json"/);
      // --refresh and --object-info go with --saved, which converts, as with --convert.
      expect((await wes(['legacy', 'prompt', '--saved', 'nope', '--refresh'])).code).toBe(5);
      expect((await wes(['legacy', 'prompt', 'x.json', '--refresh'])).code).toBe(2);
    });
  });
}

describe('jobs submit --saved on the cloud', () => {
  const dir = useTempDir();
  const { server, wes } = useServer({ deployment: 'cloud' });

  it('runs the converted graph with --set; jobs workflow and jobs rerun give that same graph', async () => {
    const { ui, api } = await savedAndConverted(server());
    const local = join(dir(), 'cloud.json');
    writeFileSync(local, ui);
    expect((await wes(['workflows', 'push', local, '--name', 'portraits/é one'])).code).toBe(0);
    const submitted = await wes(['jobs', 'submit', '--saved', 'portraits/é one', '--set', '1.width=16', '--wait']);
    expect(submitted.code, submitted.stderr).toBe(0);
    const kept = await wes(['jobs', 'workflow', '@last', '--json']);
    const answer = JSON.parse(kept.stdout) as { workflow: Record<string, any>; format: string };
    expect(answer.format).toBe('api');
    expect(answer.workflow['1'].inputs).toEqual({ ...api['1']!.inputs, width: 16 });
    expect(answer.workflow['3'].inputs).toEqual(api['3']!.inputs);
    expect(Object.keys(answer.workflow).sort()).toEqual(['1', '3']);
    const listed = await wes(['jobs', 'list', '--json']);
    expect(listed.stdout).toMatch(/saved portraits\/é one\.json/);

    const rerun = await wes(['jobs', 'rerun', '@last', '--wait']);
    expect(rerun.code, rerun.stderr).toBe(0);
    const again = JSON.parse((await wes(['jobs', 'workflow', '@last', '--json'])).stdout) as { workflow: unknown };
    expect(again.workflow).toEqual(answer.workflow);
  });
});
