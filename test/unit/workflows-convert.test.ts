// The editor's export rules, checked against real node classes (ComfyUI 0.3.18's object_info) and
// workflows whose expected API format is written from the frontend's own code (see each case's _source).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertUiWorkflow, type ApiWorkflow } from '../../src/workflows/convert.js';
import type { ObjectInfo } from '../../src/workflows/node-defs.js';
import { parseJsonExact, stringifyJsonExact } from '../../src/util/exact-json.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'workflows');
const read = (name: string) => parseJsonExact(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
const INFO: ObjectInfo = { ...read('comfyui-0.3.18-object_info.subset.json'), ...read('primitive-nodes.object_info.json') };

/** Field by field: same node ids, and per node the same class, title and inputs, each value as exact JSON text. */
function expectSameWorkflow(actual: ApiWorkflow, expected: ApiWorkflow): void {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [id, node] of Object.entries(expected)) {
    const got = actual[id]!;
    expect(got.class_type, `node ${id} class_type`).toBe(node.class_type);
    expect(got._meta, `node ${id} _meta`).toEqual(node._meta);
    expect(Object.keys(got.inputs), `node ${id} input names, in the editor's order`).toEqual(Object.keys(node.inputs));
    for (const [name, value] of Object.entries(node.inputs)) {
      expect(stringifyJsonExact(got.inputs[name]), `node ${id} input ${name}`).toBe(stringifyJsonExact(value));
    }
  }
}

describe('conversion of editor-saved workflows, compared with the editor\'s export', () => {
  for (const file of ['default-graph.case.json', 'reroute-note.case.json', 'primitive.case.json', 'muted-bypassed.case.json', 'converted-widget-seed64.case.json', 'subgraph.case.json']) {
    it(file, () => {
      const { ui, expected } = read(file) as { ui: Record<string, unknown>; expected: ApiWorkflow };
      const result = convertUiWorkflow(ui, INFO);
      expect(result.problems).toEqual([]);
      expectSameWorkflow(result.workflow, expected);
    });
  }

  it('keeps a 64-bit seed digit for digit in the printed JSON', () => {
    const { ui } = read('converted-widget-seed64.case.json') as { ui: Record<string, unknown> };
    const text = stringifyJsonExact(convertUiWorkflow(ui, INFO).workflow);
    expect(text).toContain('"value":18446744073709551615');
    expect(text).toContain('"seed":18446744073709551614');
  });
});

function node(id: number, type: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, type, mode: 0, ...extra };
}

describe('rules of the export', () => {
  it('maps widgets_values given as an object by name', () => {
    const ui = { nodes: [node(1, 'EmptyImage', { widgets_values: { color: 5, batch_size: 2, height: 9, width: 8 } })], links: [] };
    expect(convertUiWorkflow(ui, INFO).workflow['1']!.inputs).toEqual({ width: 8, height: 9, batch_size: 2, color: 5 });
  });

  it('gives a combo with control_after_generate three slots (value, control, filter list) and an INT with control_after_generate: false one', () => {
    const info: ObjectInfo = {
      Pick: { input: { required: { choice: [['a', 'b'], { control_after_generate: true }], seed: ['INT', { control_after_generate: false }] } }, output: [], display_name: 'Pick' },
    };
    const ui = { nodes: [node(1, 'Pick', { widgets_values: ['b', 'increment', '/b/', 42] })], links: [] };
    const result = convertUiWorkflow(ui, info);
    expect(result.problems).toEqual([]);
    expect(result.workflow['1']!.inputs).toEqual({ choice: 'b', seed: 42 });
  });

  it('boxes an array widget value as {__value__} and skips forceInput inputs and the upload button', () => {
    const info: ObjectInfo = {
      ...INFO,
      Lists: { input: { required: { values: ['STRING', {}], count: ['INT', { forceInput: true }] } }, output: [], display_name: 'Lists' },
    };
    const ui = { nodes: [node(1, 'Lists', { widgets_values: [['x', 'y']] }), node(2, 'LoadImage', { widgets_values: ['cat.png', 'image'] })], links: [] };
    const result = convertUiWorkflow(ui, info);
    expect(result.problems).toEqual([]);
    expect(result.workflow['1']!.inputs).toEqual({ values: { __value__: ['x', 'y'] } });
    expect(result.workflow['2']!.inputs).toEqual({ image: 'cat.png' });
  });

  it('passes a bypassed node through the input of the wanted type, not the first input', () => {
    const info: ObjectInfo = {
      ...INFO,
      Mix: { input: { required: { latent: ['LATENT'], image: ['IMAGE'] } }, output: ['IMAGE'], display_name: 'Mix' },
    };
    const ui = {
      nodes: [
        node(1, 'EmptyImage', { widgets_values: [1, 1, 1, 0], outputs: [{ type: 'IMAGE', links: [2] }] }),
        node(2, 'EmptyLatentImage', { widgets_values: [8, 8, 1], outputs: [{ type: 'LATENT', links: [1] }] }),
        node(3, 'Mix', { mode: 4, inputs: [{ name: 'latent', type: 'LATENT', link: 1 }, { name: 'image', type: 'IMAGE', link: 2 }], outputs: [{ type: 'IMAGE', links: [3] }] }),
        node(4, 'SaveImage', { inputs: [{ name: 'images', type: 'IMAGE', link: 3 }], widgets_values: ['x'] }),
      ],
      links: [[1, 2, 0, 3, 0, 'LATENT'], [2, 1, 0, 3, 1, 'IMAGE'], [3, 3, 0, 4, 0, 'IMAGE']],
    };
    expect(convertUiWorkflow(ui, info).workflow['4']!.inputs.images).toEqual(['1', 0]);
  });

  it('lists every problem: unknown class, link to a missing node, widget count, subgraph, group node, text replacement', () => {
    const ui = {
      nodes: [
        node(1, 'NoSuchNode', { widgets_values: [] }),
        node(2, 'SaveImage', { inputs: [{ name: 'images', type: 'IMAGE', link: 7 }], widgets_values: ['x'] }),
        node(3, 'EmptyImage', { widgets_values: [1, 2, 3] }),
        node(4, 'a3f1c2d4-0000-4000-8000-000000000001', { mode: 4 }),
        node(5, 'workflow>Upscaler'),
        node(6, 'PrimitiveNode', { properties: { 'Run widget replace on values': true }, widgets_values: ['%date%'], outputs: [{ type: 'STRING', links: [] }] }),
        node(7, 'SaveImage', { inputs: [{ name: 'images', type: 'IMAGE', link: 8 }], widgets_values: ['y'] }),
      ],
      links: [[7, 99, 0, 2, 0, 'IMAGE']],
      definitions: { subgraphs: [{ id: 'a3f1c2d4-0000-4000-8000-000000000001', nodes: [] }] },
      extra: { groupNodes: { Upscaler: { nodes: [] } } },
    };
    const { problems } = convertUiWorkflow(ui, INFO);
    expect(problems.map((p) => [p.node, p.classType])).toEqual([
      ['1', 'NoSuchNode'],
      ['2', 'SaveImage'],
      ['3', 'EmptyImage'],
      ['4', 'a3f1c2d4-0000-4000-8000-000000000001'],
      ['5', 'workflow>Upscaler'],
      ['6', 'PrimitiveNode'],
      ['7', 'SaveImage'],
    ]);
    expect(problems[0]!.what).toMatch(/unknown node class/);
    expect(problems[1]!.what).toMatch(/linked to node 99, which is not in the workflow/);
    expect(problems[2]!.what).toBe('widgets_values has 3 value(s) but EmptyImage takes 4: width, height, batch_size, color');
    expect(problems[3]!.what).toMatch(/muted or bypassed subgraph/);
    expect(problems[4]!.what).toMatch(/group node/);
    expect(problems[5]!.what).toMatch(/Run widget replace on values/);
    expect(problems[6]!.what).toMatch(/link 8, which is not in the workflow's links/);
  });

  it('keeps strings character for character: controls, separators, astral characters, combining marks', () => {
    const text = 'line\u2028sep \u0000nul \u009bcsi 🦊 e\u0301 \\ "q" \ud834\udd1e';
    const file = `{"nodes":[{"id":1,"type":"SaveImage","mode":0,"widgets_values":[${JSON.stringify(text)}]}],"links":[]}`;
    const result = convertUiWorkflow(parseJsonExact(file) as Record<string, unknown>, INFO);
    expect(result.workflow['1']!.inputs.filename_prefix).toBe(text);
    expect(JSON.parse(stringifyJsonExact(result.workflow))['1'].inputs.filename_prefix).toBe(text);
  });

  it('writes PrimitiveNode values in the editor\'s walking order: of two feeding one widget, the later one wins', () => {
    // Node 3 is walked after node 2 although saved first: it waits for its input link from node 1.
    const ui = {
      nodes: [
        node(3, 'PrimitiveNode', { inputs: [{ name: 'x', type: '*', link: 9 }], outputs: [{ type: 'INT', links: [2] }], widgets_values: [30, 'fixed'] }),
        node(2, 'PrimitiveNode', { outputs: [{ type: 'INT', links: [1] }], widgets_values: [20, 'fixed'] }),
        node(1, 'EmptyImage', { inputs: [{ name: 'width', type: 'INT', link: 1, widget: { name: 'width' } }], outputs: [{ type: 'IMAGE', links: [9] }], widgets_values: [10, 8, 1, 0] }),
      ],
      links: [[1, 2, 0, 1, 0, 'INT'], [2, 3, 0, 1, 0, 'INT'], [9, 1, 0, 3, 0, 'IMAGE']],
    };
    expect(convertUiWorkflow(ui, INFO).workflow['1']!.inputs.width).toBe(30);
  });

  it('takes __proto__ and constructor as plain node ids and input names', () => {
    const ui = parseJsonExact(`{"nodes":[
      {"id":"__proto__","type":"EmptyImage","mode":0,"outputs":[{"type":"IMAGE","links":[1]}],"widgets_values":[1,2,1,0]},
      {"id":"constructor","type":"SaveImage","mode":0,"inputs":[{"name":"images","type":"IMAGE","link":1},{"name":"__proto__","type":"IMAGE","link":1}],"widgets_values":["x"]}],
      "links":[[1,"__proto__",0,"constructor",0,"IMAGE"]]}`) as Record<string, unknown>;
    const { workflow, problems } = convertUiWorkflow(ui, INFO);
    expect(problems).toEqual([]);
    expect(Object.keys(workflow).sort()).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(stringifyJsonExact(workflow)).constructor.inputs).toEqual({ filename_prefix: 'x', images: ['__proto__', 0], ['__proto__']: ['__proto__', 0] });
  });

  it('refuses a subgraph node whose promoted widget values cannot be matched to its inputs, naming the node', () => {
    const { ui } = read('subgraph.case.json') as { ui: { nodes: Record<string, unknown>[] } };
    ui.nodes[1]!.widgets_values = [2.5, 'randomize'];
    const { problems } = convertUiWorkflow(ui, INFO);
    expect(problems).toEqual([{ node: '10', classType: '6c1b3c1e-8d5a-4f0e-9a53-3f1f2b0c9d10', what: expect.stringMatching(/one value per promoted widget/) }]);
  });

  it('expands a subgraph inside a subgraph with nested execution ids', () => {
    const { ui } = read('subgraph.case.json') as { ui: Record<string, any> };
    const inner = ui.definitions.subgraphs[0];
    const outer = {
      ...inner,
      id: 'outer-subgraph',
      inputs: [{ id: 'o1', name: 'image', type: 'IMAGE', linkIds: [11] }],
      outputs: [{ id: 'o2', name: 'IMAGE', type: 'IMAGE', linkIds: [12] }],
      nodes: [{ id: 7, type: inner.id, mode: 0, inputs: [{ name: 'image', type: 'IMAGE', link: 11 }, { name: 'scale_by', type: 'FLOAT', link: null, widget: { name: 'scale_by' } }], outputs: [{ name: 'IMAGE', type: 'IMAGE', links: [12] }], widgets_values: [3] }],
      links: [{ id: 11, origin_id: -10, origin_slot: 0, target_id: 7, target_slot: 0, type: 'IMAGE' }, { id: 12, origin_id: 7, origin_slot: 0, target_id: -20, target_slot: 0, type: 'IMAGE' }],
    };
    ui.definitions.subgraphs.push(outer);
    ui.nodes[1] = { id: 10, type: 'outer-subgraph', mode: 0, inputs: [{ name: 'image', type: 'IMAGE', link: 1 }], outputs: [{ name: 'IMAGE', type: 'IMAGE', links: [2] }] };
    const { workflow, problems } = convertUiWorkflow(ui, INFO);
    expect(problems).toEqual([]);
    expect(Object.keys(workflow)).toEqual(['1', '2', '10:7:5', '10:7:6']);
    expect(workflow['10:7:5']!.inputs).toEqual({ upscale_method: 'bilinear', scale_by: 3, image: ['1', 0] });
    expect(workflow['2']!.inputs.images).toEqual(['10:7:6', 0]);
  });

  it('reports a chain of Reroutes too long to follow as a problem of the node it feeds, not a crash', () => {
    const nodes: unknown[] = [node(0, 'EmptyImage', { widgets_values: [8, 8, 1, 0], outputs: [{ type: 'IMAGE', links: [1] }] })];
    const links: unknown[] = [];
    const chain = 20000;
    for (let i = 1; i <= chain; i++) {
      nodes.push(node(i, 'Reroute', { inputs: [{ name: '', type: '*', link: i }], outputs: [{ type: 'IMAGE', links: [i + 1] }] }));
      links.push([i, i - 1, 0, i, 0, 'IMAGE']);
    }
    nodes.push(node(chain + 1, 'SaveImage', { inputs: [{ name: 'images', type: 'IMAGE', link: chain + 1 }], widgets_values: ['x'] }));
    links.push([chain + 1, chain, 0, chain + 1, 0, 'IMAGE']);
    const { problems } = convertUiWorkflow({ nodes, links }, INFO);
    expect(problems).toEqual([{ node: String(chain + 1), classType: 'SaveImage', what: expect.stringMatching(/too long to follow/) }]);
  });

  it('notes dynamic-prompt syntax it sends unchanged', () => {
    const ui = { nodes: [node(1, 'CLIPTextEncode', { widgets_values: ['a {red|blue} cat // comment'] })], links: [] };
    const result = convertUiWorkflow(ui, INFO);
    expect(result.workflow['1']!.inputs.text).toBe('a {red|blue} cat // comment');
    expect(result.notes).toHaveLength(1);
  });
});
