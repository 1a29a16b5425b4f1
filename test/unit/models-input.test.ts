// Building the body of `models run`: sources merged in order, single sources sent byte for byte,
// pair values typed by the schema, files as text or data URIs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { buildInput } from '../../src/clients/models/input.js';

const doc = {
  paths: { '/m': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } } } } },
  components: {
    schemas: {
      Input: {
        type: 'object',
        properties: {
          prompt: { type: 'string' },
          count: { type: 'integer' },
          ratio: { type: 'number' },
          on: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string' } },
          opts: { type: 'object' },
          seed: { type: ['integer', 'null'] },
          image: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' },
          clip: { type: 'string', format: 'binary' },
        },
      },
    },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'wes-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('buildInput', () => {
  it('sends a single --input or -d source byte for byte', async () => {
    const raw = Buffer.from('{ "b" : 1,\n "a": "é" }');
    expect((await buildInput({ base: { bytes: raw, origin: 'f.json' }, pairs: [] })).bytes.equals(raw)).toBe(true);
    expect((await buildInput({ data: '{ "x":1 }', pairs: [] })).bytes.toString()).toBe('{ "x":1 }');
    expect((await buildInput({ pairs: [] })).bytes.toString()).toBe('{}');
  });

  it('merges --input, then -d, then -i', async () => {
    const built = await buildInput({ base: { bytes: Buffer.from('{"prompt":"a","count":1,"keep":true}'), origin: 'f' }, data: '{"prompt":"b","count":2}', pairs: ['count=3'], doc });
    expect(built.value).toEqual({ prompt: 'b', count: 3, keep: true });
    expect(JSON.parse(built.bytes.toString())).toEqual(built.value);
  });

  it('types pair values from the schema', async () => {
    const built = await buildInput({ pairs: ['prompt=42', 'count=7', 'ratio=0.5', 'on=TRUE', 'tags=["a","b"]', 'opts={"k":1}', 'seed=null', 'free=[1]', 'word=hello', 'eq=a=b'], doc });
    expect(built.value).toEqual({ prompt: '42', count: 7, ratio: 0.5, on: true, tags: ['a', 'b'], opts: { k: 1 }, seed: null, free: [1], word: 'hello', eq: 'a=b' });
  });

  it.each([['count=1.5'], ['ratio=abc'], ['on=maybe'], ['tags=notjson'], ['opts=[1]'], ['seed=x']])('refuses %s as a usage error', async (pair) => {
    await expect(buildInput({ pairs: [pair], doc })).rejects.toThrow(UsageError);
  });

  it('reads @file as text, or as a data URI for binary string fields', async () => {
    writeFileSync(join(dir, 'p.txt'), 'from a file');
    writeFileSync(join(dir, 'x.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(dir, 'c.wav'), Buffer.from([1, 2, 3]));
    writeFileSync(join(dir, 'n.json'), '[1, 2]');
    const built = await buildInput({ pairs: [`prompt=@${join(dir, 'p.txt')}`, `image=@${join(dir, 'x.png')}`, `clip=@${join(dir, 'c.wav')}`, `tags=@${join(dir, 'n.json')}`], doc });
    expect(built.value.prompt).toBe('from a file');
    expect(built.value.image).toBe('data:image/png;base64,iVBORw==');
    expect(built.value.clip).toBe('data:audio/wav;base64,AQID');
    expect(built.value.tags).toEqual([1, 2]); // typed as JSON; item types are the validator's job
    writeFileSync(join(dir, 'word.txt'), 'not json');
    await expect(buildInput({ pairs: [`tags=@${join(dir, 'word.txt')}`], doc })).rejects.toThrow(/expects array/);
  });

  it('refuses malformed sources with usage errors', async () => {
    await expect(buildInput({ data: '{nope', pairs: [] })).rejects.toThrow(/-d:1:2: not valid JSON/);
    await expect(buildInput({ data: '"text"', pairs: [] })).rejects.toThrow(/must be a JSON object/);
    await expect(buildInput({ pairs: ['=x'] })).rejects.toThrow(/KEY=VALUE/);
    await expect(buildInput({ pairs: ['noequals'] })).rejects.toThrow(/KEY=VALUE/);
    await expect(buildInput({ pairs: [`a=@${join(dir, 'missing')}`] })).rejects.toThrow(/cannot read the file: no such file/);
  });
});
