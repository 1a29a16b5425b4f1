// Reading a model's OpenAPI document: local $refs, the request-body schema, the field table, and
// validation problems in the router's loc/msg/type/ctx/input shape.
import { describe, expect, it } from 'vitest';
import { compileInputValidator } from '../../src/protocol/model-input-validation.js';
import { deref, findRequestBodySchema, resolvePointer, SchemaDocumentError } from '../../src/protocol/openapi-document.js';
import { fieldRows, fieldTypes, inputFields } from '../../src/clients/models/schema-fields.js';

function documentWith(schemas: Record<string, unknown>, body: unknown = { $ref: '#/components/schemas/Input' }) {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/v1/models/a/b': { post: { requestBody: { content: { 'application/json': { schema: body } } } } } },
    components: { schemas },
  };
}

const doc = documentWith({
  Input: {
    allOf: [{ $ref: '#/components/schemas/Base' }],
    type: 'object',
    required: ['prompt'],
    unevaluatedProperties: false,
    properties: {
      prompt: { $ref: '#/components/schemas/Prompt' },
      size: { type: 'integer', minimum: 64, maximum: 1024, multipleOf: 8, default: 512, description: 'Edge in pixels.' },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      mode: { enum: ['fast', 'slow'] },
      tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 2 },
      when: { type: 'string', format: 'date-time' },
      seed: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      hook: { type: 'string', format: 'uri' },
      'a/b': { type: 'boolean' },
    },
  },
  Base: { properties: { steps: { type: 'integer' } }, required: ['steps'] },
  Prompt: { type: 'string', minLength: 1, maxLength: 10, pattern: '^[a-z ]+$' },
});

describe('openapi-doc', () => {
  it('resolves JSON pointers with ~0 and ~1 escapes', () => {
    const d = { a: { 'x/y': { '~z': 1 } }, list: [10, 20] };
    expect(resolvePointer(d, '#/a/x~1y/~0z')).toBe(1);
    expect(resolvePointer(d, '#/list/1')).toBe(20);
    expect(resolvePointer(d, '#')).toBe(d);
    expect(() => resolvePointer(d, '#/nope')).toThrow(SchemaDocumentError);
    expect(() => resolvePointer(d, 'other.json#/a')).toThrow(/only local/);
  });

  it('follows chains of refs and refuses cycles', () => {
    const d = { components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { type: 'string' }, C: { $ref: '#/components/schemas/C' } } } };
    expect(deref(d, { $ref: '#/components/schemas/A' })).toEqual({ type: 'string' });
    expect(deref(d, { $ref: '#/components/schemas/B', description: 'sibling wins' })).toEqual({ type: 'string', description: 'sibling wins' });
    expect(() => deref(d, { $ref: '#/components/schemas/C' })).toThrow(/cycle/);
  });

  it('finds the JSON request body, also through a $ref to components.requestBodies', () => {
    expect(findRequestBodySchema(doc)).toEqual({ $ref: '#/components/schemas/Input' });
    const viaRef = {
      paths: { '/x': { post: { requestBody: { $ref: '#/components/requestBodies/B' } } } },
      components: { requestBodies: { B: { content: { 'application/vnd.x+json': { schema: { type: 'object' } } } } } },
    };
    expect(findRequestBodySchema(viaRef)).toEqual({ type: 'object' });
    expect(() => findRequestBodySchema({ paths: {} })).toThrow(/no JSON request body/);
    expect(() => findRequestBodySchema([])).toThrow(/not a JSON object/);
  });
});

describe('schema fields', () => {
  it('lists properties (allOf parts included) with required flags and types', () => {
    const fields = inputFields(doc);
    expect(fields.map((f) => [f.name, f.required])).toEqual([
      ['prompt', true], ['size', false], ['ratio', false], ['mode', false], ['tags', false], ['when', false], ['seed', false], ['hook', false], ['a/b', false], ['steps', true],
    ]);
    expect(fieldTypes(doc, fields.find((f) => f.name === 'seed')!.schema)).toEqual(['integer', 'null']);
    expect(fieldTypes(doc, fields.find((f) => f.name === 'mode')!.schema)).toEqual(['string']);
  });

  it('describes each field for the table', () => {
    const rows = Object.fromEntries(fieldRows(doc).map((r) => [r.name, r]));
    expect(rows.prompt).toMatchObject({ type: 'string', required: true, constraints: 'min length 1, max length 10, pattern ^[a-z ]+$' });
    expect(rows.size).toEqual({ name: 'size', type: 'integer', required: false, default: '512', constraints: '>= 64, <= 1024, multiple of 8', description: 'Edge in pixels.' });
    expect(rows.ratio!.constraints).toBe('> 0, < 1');
    expect(rows.mode!.constraints).toBe('one of "fast", "slow"');
    expect(rows.tags).toMatchObject({ type: 'array<string>', constraints: 'max items 2, items: min length 1' });
    expect(rows.when!.type).toBe('string (date-time)');
  });
});

describe('input validation', () => {
  const validate = compileInputValidator(doc);

  it('accepts a valid input', () => {
    expect(validate({ prompt: 'a cat', steps: 3, size: 64, seed: null, tags: ['x'], hook: 'https://x.test/h', when: '2025-01-01T00:00:00Z' })).toEqual([]);
  });

  it('reports every problem with loc, msg, type, ctx and input', () => {
    const problems = validate({ prompt: 'ABC', size: 1030, ratio: 1, mode: 'medium', tags: ['ok', ''], hook: 'nope', seed: 'x', extra: 1, 'a/b': 'yes' });
    const byType = Object.fromEntries(problems.map((p) => [`${p.type}:${p.loc.join('.')}`, p]));
    expect(byType['missing:steps']).toEqual({ loc: ['steps'], msg: 'Field required', type: 'missing' });
    expect(byType['string_pattern_mismatch:prompt']).toMatchObject({ ctx: { pattern: '^[a-z ]+$' }, input: 'ABC' });
    expect(byType['less_than_equal:size']).toEqual({ loc: ['size'], msg: 'Input should be less than or equal to 1024', type: 'less_than_equal', ctx: { le: 1024 }, input: 1030 });
    expect(byType['multiple_of:size']).toMatchObject({ ctx: { multiple_of: 8 } });
    expect(byType['less_than:ratio']).toMatchObject({ ctx: { lt: 1 }, input: 1 });
    expect(byType['enum:mode']).toMatchObject({ msg: "Input should be 'fast' or 'slow'", ctx: { expected: "'fast' or 'slow'" } });
    expect(byType['string_too_short:tags.1']!.loc).toEqual(['tags', 1]);
    expect(byType['url_parsing:hook']).toMatchObject({ input: 'nope' });
    expect(byType['extra_forbidden:extra']).toMatchObject({ loc: ['extra'], input: 1 });
    expect(byType['bool_type:a/b']).toMatchObject({ loc: ['a/b'], msg: 'Input should be a valid boolean' });
    expect(problems.some((p) => p.loc[0] === 'seed')).toBe(true);
  });

  it('refuses a document whose refs point nowhere', () => {
    expect(() => compileInputValidator(documentWith({}, { $ref: '#/components/schemas/Missing' }))).toThrow(SchemaDocumentError);
  });
});
