// The input fields a schema document describes, for people (the `models schema` table) and for
// typing `-i KEY=VALUE` pairs. Reads the request-body schema through the document's local $refs.
import { deref, findRequestBodySchema, isObject, type JsonObject } from '../../protocol/openapi-document.js';

export interface InputField {
  name: string;
  schema: JsonObject;
  required: boolean;
}

/** The body schema's top-level properties (including those of allOf parts), in document order. */
export function inputFields(doc: unknown): InputField[] {
  const body = deref(doc, findRequestBodySchema(doc));
  const fields = new Map<string, InputField>();
  const required = new Set<string>();
  const visit = (node: unknown, depth: number) => {
    const schema = deref(doc, node);
    if (!isObject(schema) || depth > 8) return;
    if (Array.isArray(schema.required)) for (const r of schema.required) if (typeof r === 'string') required.add(r);
    if (isObject(schema.properties)) {
      for (const [name, sub] of Object.entries(schema.properties)) {
        const resolved = deref(doc, sub);
        if (!fields.has(name)) fields.set(name, { name, schema: isObject(resolved) ? resolved : {}, required: false });
      }
    }
    if (Array.isArray(schema.allOf)) for (const part of schema.allOf) visit(part, depth + 1);
  };
  visit(body, 0);
  return [...fields.values()].map((f) => ({ ...f, required: required.has(f.name) }));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The JSON types a field accepts (from `type`, or the alternatives of anyOf/oneOf). */
export function fieldTypes(doc: unknown, schema: JsonObject): string[] {
  const types = new Set<string>();
  const add = (node: unknown, depth: number) => {
    const s = deref(doc, node);
    if (!isObject(s) || depth > 8) return;
    if (typeof s.type === 'string') types.add(s.type);
    if (Array.isArray(s.type)) for (const t of s.type) if (typeof t === 'string') types.add(t);
    if (s.type === undefined && (s.const !== undefined || Array.isArray(s.enum))) {
      for (const v of Array.isArray(s.enum) ? s.enum : [s.const]) types.add(jsonTypeOf(v));
    }
    for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) for (const alt of s[key]) add(alt, depth + 1);
  };
  add(schema, 0);
  return [...types];
}

/** Whether a string field carries file content (so `@file` becomes a data URI). */
export function isBinaryString(schema: JsonObject): boolean {
  return schema.format === 'binary' || schema.format === 'byte' || typeof schema.contentEncoding === 'string' || typeof schema.contentMediaType === 'string';
}

/** Whether a field takes a URL (`format: uri`, on itself or one of its anyOf/oneOf alternatives). */
export function isUriField(doc: unknown, schema: JsonObject): boolean {
  const visit = (node: unknown, depth: number): boolean => {
    const s = deref(doc, node);
    if (!isObject(s) || depth > 8) return false;
    if (s.format === 'uri') return true;
    return (['anyOf', 'oneOf'] as const).some((key) => Array.isArray(s[key]) && s[key].some((alt) => visit(alt, depth + 1)));
  };
  return visit(schema, 0);
}

function typeLabel(doc: unknown, schema: JsonObject): string {
  let label = fieldTypes(doc, schema).join(' | ') || 'any';
  if (label === 'array') {
    const items = deref(doc, schema.items);
    if (isObject(items)) label = `array<${fieldTypes(doc, items).join(' | ') || 'any'}>`;
  }
  const extras = [schema.format, schema.contentEncoding, schema.contentMediaType].filter((x): x is string => typeof x === 'string');
  return extras.length > 0 ? `${label} (${extras.join(', ')})` : label;
}

const BOUNDS: Array<[string, string]> = [
  ['minimum', '>='], ['exclusiveMinimum', '>'], ['maximum', '<='], ['exclusiveMaximum', '<'],
  ['multipleOf', 'multiple of'], ['minLength', 'min length'], ['maxLength', 'max length'],
  ['minItems', 'min items'], ['maxItems', 'max items'], ['pattern', 'pattern'],
];

function constraints(doc: unknown, schema: JsonObject): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (schema.const !== undefined) parts.push(`= ${JSON.stringify(schema.const)}`);
  for (const [key, label] of BOUNDS) if (schema[key] !== undefined) parts.push(`${label} ${typeof schema[key] === 'string' ? schema[key] : JSON.stringify(schema[key])}`);
  const items = deref(doc, schema.items);
  if (isObject(items)) {
    const inner = constraints(doc, items);
    if (inner) parts.push(`items: ${inner}`);
  }
  return parts.join(', ');
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  default: string;
  constraints: string;
  description: string;
}

export function fieldRows(doc: unknown): FieldRow[] {
  return inputFields(doc).map((field) => ({
    name: field.name,
    type: typeLabel(doc, field.schema),
    required: field.required,
    default: field.schema.default === undefined ? '' : JSON.stringify(field.schema.default),
    constraints: constraints(doc, field.schema),
    description: typeof field.schema.description === 'string' ? field.schema.description : '',
  }));
}
