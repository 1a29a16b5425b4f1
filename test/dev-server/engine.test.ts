import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dependencyOrder } from '../../src/dev-server/engine/graph.js';
import { nodesOnCycles } from '../../src/util/dependency-cycles.js';
import { solidImage, perturb } from '../../src/dev-server/engine/image.js';
import { NODE_CLASSES } from '../../src/dev-server/engine/nodes/index.js';
import { objectInfoOf } from '../../src/dev-server/engine/object-info.js';
import { decodePng, encodePng, PNG_SIGNATURE } from '../../src/dev-server/engine/png.js';
import { syntheticStream } from '../../src/dev-server/engine/synthetic.js';
import { isUiFormat, validateWorkflow } from '../../src/dev-server/engine/validate.js';

const info = objectInfoOf(NODE_CLASSES.values());

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('object_info', () => {
  it('describes every class in the v1 shape', () => {
    expect(Object.keys(info).sort()).toEqual([
      'CLIPTextEncode', 'CheckpointLoaderSimple', 'EmptyImage', 'EmptyLatentImage', 'Fail', 'ImageInvert', 'KSampler', 'LoadImage',
      'PartnerCall', 'Sample', 'SaveBytes', 'SaveImage', 'SaveText', 'VAEDecode',
    ]);
    expect(info.Sample!.input.required.steps).toEqual(['INT', { default: 20, min: 1, max: 150 }]);
    const sampler = info.Sample!.input.required.sampler_name!;
    expect(Array.isArray(sampler[0])).toBe(true);
    expect(sampler[0]).toContain('euler');
    expect(info.Sample!.output).toEqual(['IMAGE']);
    expect(info.SaveImage!.output_node).toBe(true);
    expect(info.EmptyImage!.output_node).toBe(false);
    expect(info.LoadImage!.input.required.image![1]).toMatchObject({ image_upload: true });
  });
});

describe('validateWorkflow', () => {
  const ok = {
    '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 0 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'a' } },
  };

  it('accepts a sound workflow and orders it by dependency', () => {
    const report = validateWorkflow({ '9': ok['2'], '1': ok['1'] } as never, info);
    expect(report.nodeErrors).toEqual({});
    expect(report.hasOutputNode).toBe(true);
    expect(report.order).toEqual(['1', '9']);
  });

  it('finds type mismatches, bad literals and image files the input folder lacks (in the engine\'s words)', () => {
    const report = validateWorkflow(
      {
        '1': { class_type: 'SaveText', inputs: { text: ['2', 0] } },
        '2': { class_type: 'EmptyImage', inputs: { width: 1.5, height: -1, batch_size: 1, color: 'red' } },
        '3': { class_type: 'LoadImage', inputs: { image: 'nope' } },
        '4': 'not a node',
      },
      info,
      { fileExists: () => false },
    );
    const types = (id: string) => report.nodeErrors[id]!.errors.map((e) => e.type);
    expect(types('1')).toEqual(['return_type_mismatch']);
    expect(types('2')).toEqual(['invalid_input_type', 'value_smaller_than_min', 'invalid_input_type']);
    expect(report.nodeErrors['3']!.errors).toEqual([
      { type: 'custom_validation_failed', message: 'Custom validation failed for node', details: 'image - Invalid image file: nope' },
    ]);
    expect(types('4')).toEqual(['invalid_node']);
    expect(report.hasOutputNode).toBe(true);
  });

  it('reports a workflow with no saving node', () => {
    expect(validateWorkflow({ '1': ok['1'] }, info).hasOutputNode).toBe(false);
  });

  it('tells UI-format workflows apart', () => {
    expect(isUiFormat({ nodes: [], links: [] })).toBe(true);
    expect(isUiFormat(ok)).toBe(false);
  });
});

describe('graph', () => {
  it('finds nodes on cycles, including self-links, and only those', () => {
    const deps = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['c']],
      ['d', ['a']],
    ]);
    expect([...nodesOnCycles(deps)].sort()).toEqual(['a', 'b', 'c']);
  });

  it('orders by dependency with ties in workflow order', () => {
    const deps = new Map([
      ['1', []],
      ['2', ['3']],
      ['3', []],
      ['4', ['1']],
    ]);
    expect(dependencyOrder(deps)).toEqual(['1', '3', '2', '4']);
  });
});

describe('png', () => {
  it('round-trips the encoder through the decoder', () => {
    const image = perturb(solidImage(7, 5, 0x102030), 99, 1);
    const png = encodePng(image);
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    const back = decodePng(png);
    expect(back.width).toBe(7);
    expect(back.height).toBe(5);
    expect(Buffer.from(back.data)).toEqual(Buffer.from(image.data));
  });

  it('decodes RGBA rows written with every filter type', () => {
    const width = 3;
    const height = 5;
    const pixels = Buffer.alloc(width * height * 4);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 37) & 0xff;
    const stride = width * 4;
    const raw = Buffer.alloc((stride + 1) * height);
    for (let y = 0; y < height; y++) {
      const filter = y; // 0 none, 1 sub, 2 up, 3 average, 4 paeth
      raw[y * (stride + 1)] = filter;
      for (let x = 0; x < stride; x++) {
        const value = pixels[y * stride + x]!;
        const a = x >= 4 ? pixels[y * stride + x - 4]! : 0;
        const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
        const c = x >= 4 && y > 0 ? pixels[(y - 1) * stride + x - 4]! : 0;
        const p = a + b - c;
        const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
        const predicted = [0, a, b, (a + b) >> 1, paeth][filter]!;
        raw[y * (stride + 1) + 1 + x] = (value - predicted) & 0xff;
      }
    }
    const chunk = (type: string, data: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(data.length);
      head.write(type, 4, 'ascii');
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
      return Buffer.concat([head, data, crc]);
    };
    const ihdr = Buffer.from([0, 0, 0, width, 0, 0, 0, height, 8, 6, 0, 0, 0]);
    const png = Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
    const image = decodePng(png);
    for (let i = 0; i < width * height; i++) {
      expect([...image.data.subarray(i * 3, i * 3 + 3)]).toEqual([...pixels.subarray(i * 4, i * 4 + 3)]);
    }
  });

  it('refuses bytes that are not a PNG', () => {
    expect(() => decodePng(Buffer.from('GIF89a not a png'))).toThrow(/not a PNG/);
  });
});

describe('synthetic bytes', () => {
  it('are deterministic, and any range equals the same slice of the whole', async () => {
    const size = 200_003;
    const whole = await collect(syntheticStream(5, size));
    expect(whole.length).toBe(size);
    expect((await collect(syntheticStream(5, size))).equals(whole)).toBe(true);
    expect((await collect(syntheticStream(6, size))).equals(whole)).toBe(false);
    for (const [start, end] of [[0, 0], [65_530, 65_545], [131_072, size - 1], [size - 1, size - 1]] as const) {
      expect((await collect(syntheticStream(5, size, { start, end }))).equals(whole.subarray(start, end + 1))).toBe(true);
    }
  });

  it('stream in blocks instead of one buffer', async () => {
    const stream = syntheticStream(1, 1024 * 1024);
    let largest = 0;
    for await (const chunk of stream) largest = Math.max(largest, (chunk as Buffer).length);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
  });
});
