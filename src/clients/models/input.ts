// The body of `models run`, from `--input FILE|-`, `-d JSON` and `-i KEY=VALUE` pairs, merged in
// that order. A single source (--input or -d) is sent byte for byte; anything merged is
// serialised once.
// Pair values are typed by the model's schema when one is known.
import { readFile } from 'node:fs/promises';
import { guessMediaType } from '../../files/media-type.js';
import { UsageError } from '../../errors.js';
import { isLosslessNumber, JsonRefusedError, parseJsonExact, stringifyJsonExact } from '../../util/exact-json.js';
import { isObject, type JsonObject } from '../../protocol/openapi-document.js';
import { isCertainlyJsonObject } from '../../util/json-object-scan.js';
import { fieldTypes, inputFields, isBinaryString, type InputField } from './schema-fields.js';
import { whyUnreadable } from '../../files/unreadable.js';

/** Input bytes and where they came from (a path, "standard input", "-d"). */
export interface InputBytes {
  bytes: Buffer;
  origin: string;
}

export interface InputSources {
  /** Bytes of --input. */
  base?: InputBytes;
  /** -d: inline JSON, or the bytes of the file -d @FILE named. */
  data?: string | InputBytes;
  pairs: string[];
  /** The model's schema document, for typing pairs. */
  doc?: JsonObject;
  /** Folder `@file` paths are relative to (default: the working directory). */
  cwd?: string;
  /**
   * The input will be checked against a schema: a single source is then parsed once, for both the
   * syntax check and the schema check, instead of scanned and parsed again.
   */
  forSchemaCheck?: boolean;
}

export interface BuiltInput {
  bytes: Buffer;
  /** The exact value (numbers kept as written). */
  value: JsonObject;
  /** The value as JSON.parse reads it (numbers as doubles): what the schema check looks at. */
  plain: unknown;
}

function parseObject(text: string, origin: string): JsonObject {
  let value: unknown;
  try {
    value = parseJsonExact(text);
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new UsageError(`${origin}: ${err.message}`);
    throw new UsageError(`${origin} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(value) || isLosslessNumber(value)) throw new UsageError(`${origin} must be a JSON object (the model's input), got ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value;
}

/** A literal that may overflow a double: a positive exponent of three digits or more. */
const MAYBE_OVERFLOW = /\d[eE]\+?0*[1-9]\d{2}/;

/**
 * Checks that a single source is a JSON object, for sending its bytes unchanged: a scan of the
 * bytes that builds nothing decides the common case; when it is unsure, or when the value is
 * wanted for the schema check (`parse`), the built-in parser checks syntax and shape and its
 * result is returned (the exact parser is ~10x slower on a 5 MB body). The exact parser runs only
 * to word an error, or when a literal might overflow (it names the literal, exit 2).
 */
function checkObject({ bytes, origin }: InputBytes, parse: boolean): unknown {
  if (!parse && isCertainlyJsonObject(bytes)) return undefined;
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    parseObject(text, origin); // throws the precise message
  }
  if (!isObject(value) || MAYBE_OVERFLOW.test(text)) parseObject(text, origin);
  return value;
}

/** A BuiltInput sent as its bytes, its values read from them when first asked for. */
function sentAsIs(only: InputBytes, parsed: unknown): BuiltInput {
  let plain = parsed;
  return {
    bytes: only.bytes,
    get value() {
      return parseObject(only.bytes.toString('utf8'), only.origin);
    },
    get plain() {
      plain ??= JSON.parse(only.bytes.toString('utf8'));
      return plain;
    },
  };
}

function dataUri(bytes: Buffer, path: string, schema: JsonObject): string {
  const declared = typeof schema.contentMediaType === 'string' && !schema.contentMediaType.includes('*') ? schema.contentMediaType : undefined;
  const type = declared ?? guessMediaType(path);
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** The value of JSON text, exact in its numbers; undefined when it is not JSON. A number JSON cannot hold is exit 2. */
function parseJsonOr(text: string, key: string): unknown {
  try {
    return parseJsonExact(text);
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new UsageError(`-i ${key}: ${err.message}`);
    return undefined;
  }
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** A number typed on the command line: a JSON literal keeps its digits exactly (a 64-bit seed stays whole). */
function numberOf(text: string, key: string): unknown {
  return JSON_NUMBER.test(text) ? parseJsonOr(text, key) : Number(text);
}

/** Types one value by the field's declared JSON types; undefined `field`: JSON when it parses, else text. */
export function typeValue(doc: unknown, key: string, text: string, field: InputField | undefined): unknown {
  if (!field) return parseJsonOr(text, key) ?? text;
  const types = fieldTypes(doc, field.schema);
  if (types.length === 0) return parseJsonOr(text, key) ?? text;
  const trimmed = text.trim();
  if (types.includes('integer') && /^-?\d+$/.test(trimmed)) return numberOf(trimmed, key);
  if (types.includes('number') && trimmed !== '' && (JSON_NUMBER.test(trimmed) || Number.isFinite(Number(trimmed)))) return numberOf(trimmed, key);
  if (types.includes('boolean') && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  if (types.includes('array') || types.includes('object')) {
    const parsed = parseJsonOr(trimmed, key);
    if ((Array.isArray(parsed) && types.includes('array')) || (isObject(parsed) && !isLosslessNumber(parsed) && types.includes('object'))) return parsed;
  }
  if (types.includes('null') && trimmed === 'null') return null;
  if (types.includes('string')) return text;
  throw new UsageError(`-i ${key}: the model expects ${types.join(' or ')}, got ${JSON.stringify(text)}`);
}

async function pairValue(pair: string, doc: JsonObject | undefined, fields: Map<string, InputField>, cwd: string | undefined): Promise<[string, unknown]> {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`-i expects KEY=VALUE, got ${JSON.stringify(pair)}`);
  const key = pair.slice(0, eq);
  const raw = pair.slice(eq + 1);
  const field = fields.get(key);
  if (!raw.startsWith('@')) return [key, typeValue(doc, key, raw, field)];
  const path = raw.slice(1);
  let bytes: Buffer;
  try {
    bytes = await readFile(cwd ? new URL(path, `file://${cwd}/`) : path);
  } catch (err) {
    throw new UsageError(`-i ${key}=@${path}: cannot read the file: ${whyUnreadable(err)}`);
  }
  const binary = field !== undefined && fieldTypes(doc, field.schema).includes('string') && isBinaryString(field.schema);
  return [key, binary ? dataUri(bytes, path, field!.schema) : typeValue(doc, key, bytes.toString('utf8'), field)];
}

export async function buildInput(sources: InputSources): Promise<BuiltInput> {
  const { base, pairs, doc } = sources;
  const data = typeof sources.data === 'string' ? { bytes: Buffer.from(sources.data), origin: '-d' } : sources.data;
  if (pairs.length === 0 && (base === undefined) !== (data === undefined)) {
    const only = (base ?? data)!;
    return sentAsIs(only, checkObject(only, sources.forSchemaCheck ?? false));
  }
  const value: JsonObject = base ? parseObject(base.bytes.toString('utf8'), base.origin) : {};
  if (data !== undefined) Object.assign(value, parseObject(data.bytes.toString('utf8'), data.origin));
  const fields = new Map(doc ? inputFields(doc).map((f) => [f.name, f] as const) : []);
  for (const pair of pairs) {
    const [key, typed] = await pairValue(pair, doc, fields, sources.cwd);
    value[key] = typed;
  }
  const bytes = Buffer.from(stringifyJsonExact(value));
  let plain: unknown;
  return {
    bytes,
    value,
    get plain() {
      plain ??= JSON.parse(bytes.toString('utf8'));
      return plain;
    },
  };
}
