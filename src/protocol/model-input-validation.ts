// Validating a model input against its schema document with ajv (JSON Schema 2020-12, the dialect
// of OpenAPI 3.1), reporting every problem in the router's validation-detail shape (service
// interface, "B. Router error resources": `loc` outermost first with integer array indexes, `msg`,
// `type`, `ctx`, `input`). The interface says the schema document "is the same document the server
// validates calls against"; the dev-server validates calls with this and the CLI checks input
// locally with it, a neutral schema check that is part of neither side.
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { findRequestBodySchema, isObject, SchemaDocumentError } from './openapi-document.js';
import type { RouterValidationErrorDetail } from './errors.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}

function newAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, validateFormats: true });
  ajv.addFormat('uri', isUri);
  ajv.addFormat('url', isUri);
  ajv.addFormat('byte', BASE64);
  ajv.addFormat('binary', true);
  ajv.addFormat('date-time', (v: string) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d\d-\d\dT/.test(v));
  return ajv;
}

let shared: ReturnType<typeof newAjv> | undefined;

export type InputValidator = (input: unknown) => RouterValidationErrorDetail[];

/**
 * Compiles the request-body schema of an OpenAPI document. The schema is compiled with the
 * document's `components` next to it, so `#/components/...` refs resolve as they do in the document.
 */
export function compileInputValidator(doc: unknown): InputValidator {
  const bodySchema = findRequestBodySchema(doc);
  if (!isObject(bodySchema) && typeof bodySchema !== 'boolean') {
    throw new SchemaDocumentError('the request body schema is not a JSON schema');
  }
  const root = isObject(bodySchema) ? { ...bodySchema, components: (doc as Record<string, unknown>).components } : bodySchema;
  shared ??= newAjv();
  let validate: ValidateFunction;
  try {
    validate = shared.compile(root);
  } catch (err) {
    throw new SchemaDocumentError(`the input schema cannot be compiled: ${(err as Error).message}`);
  }
  return (input) => (validate(input) ? [] : toDetails(validate.errors ?? [], input));
}

/** Splits an ajv instance path into loc segments, numbers where the data holds an array. */
function locOf(instancePath: string, data: unknown): Array<string | number> {
  const loc: Array<string | number> = [];
  if (instancePath === '') return loc;
  let node: unknown = data;
  for (const raw of instancePath.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      loc.push(Number(key));
      node = node[Number(key)];
    } else {
      loc.push(key);
      node = isObject(node) ? node[key] : undefined;
    }
  }
  return loc;
}

function valueAt(data: unknown, loc: Array<string | number>): unknown {
  let node = data;
  for (const key of loc) {
    if (Array.isArray(node) && typeof key === 'number') node = node[key];
    else if (isObject(node) && typeof key === 'string') node = node[key];
    else return undefined;
  }
  return node;
}

const TYPE_NAMES: Record<string, [string, string]> = {
  integer: ['int_type', 'a valid integer'],
  number: ['float_type', 'a valid number'],
  string: ['string_type', 'a valid string'],
  boolean: ['bool_type', 'a valid boolean'],
  array: ['list_type', 'a valid list'],
  object: ['dict_type', 'a valid dictionary'],
  null: ['none_required', 'None'],
};

function quoteList(values: unknown[]): string {
  const parts = values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v)));
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;
}

type Described = { type: string; msg: string; ctx?: Record<string, unknown> };

function describe(error: ErrorObject): Described | undefined {
  const p = error.params as Record<string, unknown>;
  const limit = p.limit;
  switch (error.keyword) {
    case 'type': {
      const first = Array.isArray(p.type) ? String(p.type[0]) : String(p.type);
      const [type, what] = TYPE_NAMES[first] ?? ['value_error', `of type ${first}`];
      return { type, msg: `Input should be ${what}` };
    }
    case 'maximum':
      return { type: 'less_than_equal', msg: `Input should be less than or equal to ${limit}`, ctx: { le: limit } };
    case 'exclusiveMaximum':
      return { type: 'less_than', msg: `Input should be less than ${limit}`, ctx: { lt: limit } };
    case 'minimum':
      return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${limit}`, ctx: { ge: limit } };
    case 'exclusiveMinimum':
      return { type: 'greater_than', msg: `Input should be greater than ${limit}`, ctx: { gt: limit } };
    case 'multipleOf':
      return { type: 'multiple_of', msg: `Input should be a multiple of ${p.multipleOf}`, ctx: { multiple_of: p.multipleOf } };
    case 'minLength':
      return { type: 'string_too_short', msg: `String should have at least ${limit} characters`, ctx: { min_length: limit } };
    case 'maxLength':
      return { type: 'string_too_long', msg: `String should have at most ${limit} characters`, ctx: { max_length: limit } };
    case 'minItems':
      return { type: 'too_short', msg: `List should have at least ${limit} items`, ctx: { min_length: limit } };
    case 'maxItems':
      return { type: 'too_long', msg: `List should have at most ${limit} items`, ctx: { max_length: limit } };
    case 'uniqueItems':
      return { type: 'unique_items', msg: `List items should be unique (items ${p.j} and ${p.i} are equal)` };
    case 'enum': {
      const expected = quoteList(Array.isArray(p.allowedValues) ? p.allowedValues : []);
      return { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } };
    }
    case 'const': {
      const expected = quoteList([p.allowedValue]);
      return { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } };
    }
    case 'pattern':
      return { type: 'string_pattern_mismatch', msg: `String should match pattern '${p.pattern}'`, ctx: { pattern: p.pattern } };
    case 'format':
      return p.format === 'uri' || p.format === 'url'
        ? { type: 'url_parsing', msg: 'Input should be a valid URL', ctx: { format: p.format } }
        : { type: 'value_error', msg: `Input should be a valid ${p.format} value`, ctx: { format: p.format } };
    case 'if':
      return undefined; // the failing then/else branch reports the actual problem
    default:
      return { type: 'value_error', msg: error.message ? `Input ${error.message}` : 'Input is invalid' };
  }
}

function toDetails(errors: ErrorObject[], data: unknown): RouterValidationErrorDetail[] {
  const details: RouterValidationErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    let loc = locOf(error.instancePath, data);
    let detail: RouterValidationErrorDetail;
    if (error.keyword === 'required') {
      loc = [...loc, String((error.params as { missingProperty: string }).missingProperty)];
      detail = { loc, msg: 'Field required', type: 'missing' };
    } else if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
      const params = error.params as { additionalProperty?: string; unevaluatedProperty?: string };
      loc = [...loc, String(params.additionalProperty ?? params.unevaluatedProperty)];
      detail = { loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: valueAt(data, loc) };
    } else {
      const described = describe(error);
      if (!described) continue;
      detail = { loc, msg: described.msg, type: described.type, input: valueAt(data, loc) };
      if (described.ctx) detail.ctx = described.ctx;
    }
    const key = JSON.stringify([detail.loc, detail.type]);
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(detail);
  }
  return details;
}
