// The engine's checks of an API-format workflow, done locally (validate_prompt / validate_inputs
// in ComfyUI 0.3.18's execution.py), against the engine's own object_info.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/util/exact-json.js';
import type { ObjectInfo } from '../../src/workflows/node-defs.js';
import { validateApiWorkflow } from '../../src/workflows/validate.js';

const INFO = parseJsonExact(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'workflows', 'comfyui-0.3.18-object_info.subset.json'), 'utf8')) as ObjectInfo;
const summary = (workflow: string) => validateApiWorkflow(parseJsonExact(workflow) as Record<string, unknown>, INFO).map((p) => [p.node, p.type, p.details]);

describe('validateApiWorkflow', () => {
  it('names every unknown class before anything else, as invalid_prompt', () => {
    expect(summary('{"1":{"class_type":"Nope","inputs":{}},"2":{"class_type":"AlsoNope","inputs":{}},"3":{"class_type":"SaveImage","inputs":{}}}')).toEqual([
      ['1', 'invalid_prompt', "Node ID '#1'"],
      ['2', 'invalid_prompt', "Node ID '#2'"],
    ]);
  });

  it('checks only what feeds an output node, following links', () => {
    const problems = summary(`{
      "1": {"class_type": "EmptyImage", "inputs": {"width": 0, "height": 8, "batch_size": 1, "color": 0}},
      "2": {"class_type": "EmptyImage", "inputs": {"width": 0}},
      "3": {"class_type": "SaveImage", "inputs": {"images": ["1", 0], "filename_prefix": "x"}}
    }`);
    expect(problems).toEqual([['1', 'value_smaller_than_min', 'width']]);
  });

  it('finds links to missing nodes and outputs, and mismatched types', () => {
    const problems = summary(`{
      "1": {"class_type": "SaveImage", "inputs": {"images": ["9", 0], "filename_prefix": "x"}},
      "2": {"class_type": "SaveImage", "inputs": {"images": ["3", 5], "filename_prefix": "x"}},
      "3": {"class_type": "EmptyLatentImage", "inputs": {"width": 512, "height": 512, "batch_size": 1}},
      "4": {"class_type": "SaveImage", "inputs": {"images": ["3", 0], "filename_prefix": "x"}},
      "5": {"class_type": "SaveImage", "inputs": {"images": "not a link", "filename_prefix": "x"}}
    }`);
    expect(problems).toEqual([
      ['1', 'bad_linked_input', 'images: node 9'],
      ['2', 'bad_linked_input', 'images: node 3'],
      ['4', 'return_type_mismatch', 'images, received_type(LATENT) mismatch input_type(IMAGE)'],
    ]);
  });

  it('compares 64-bit bounds exactly and converts numeric strings as int() does', () => {
    const ks = (seed: string) => `{"1":{"class_type":"KSampler","inputs":{"seed":${seed},"steps":"20","cfg":8,"sampler_name":"euler","scheduler":"normal","denoise":1,"model":["2",0],"positive":["2",0],"negative":["2",0],"latent_image":["2",0]}},"2":{"class_type":"SaveImage","inputs":{}},"3":{"class_type":"PreviewImage","inputs":{"images":["1",0]}}}`;
    const seedProblems = (seed: string) => summary(ks(seed)).filter(([node, type]) => node === '1' && type.startsWith('value_'));
    expect(seedProblems('18446744073709551615')).toEqual([]);
    expect(seedProblems('18446744073709551616')).toEqual([['1', 'value_bigger_than_max', 'seed']]);
    expect(seedProblems('-1')).toEqual([['1', 'value_smaller_than_min', 'seed']]);
    expect(summary(ks('"seven"')).filter(([, type]) => type === 'invalid_input_type')).toEqual([['1', 'invalid_input_type', 'seed, seven']]);
  });

  it('follows a chain of thousands of nodes without exhausting the stack', () => {
    const workflow: Record<string, unknown> = { '0': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } } };
    for (let i = 1; i <= 20000; i++) workflow[String(i)] = { class_type: 'ImageInvert', inputs: { image: [String(i - 1), 0] } };
    workflow.save = { class_type: 'SaveImage', inputs: { images: ['20000', 0], filename_prefix: 'x' } };
    expect(validateApiWorkflow(workflow, INFO)).toEqual([]);
  });
});
