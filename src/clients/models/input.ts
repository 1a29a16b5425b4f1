// The body of `models run`, from `--input FILE|-`, `-d JSON` and `-i KEY=VALUE` pairs, merged in
// that order. A single source (--input or -d) is sent byte for byte; anything merged is
// serialised once.
// Pair values are typed by the model's schema when one is known (input-pairs.ts, loaded for pairs only).
import { UsageError } from '../../errors.js';
import { isLosslessNumber, JsonRefusedError, parseJsonExact } from '../../util/exact-json.js';
import { jsonBytes } from '../../util/exact-json-bytes.js';
import { isObject, type JsonObject } from '../../protocol/openapi-document.js';
import { isCertainlyJsonObject } from '../../util/json-object-scan.js';
import type { HostedUrlResolver } from './input-pairs.js';
import { notJsonError } from '../../workflows/json-position.js';

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
  /** Makes the URL a `format: uri` field gets from `asset:ID` or `@FILE` (absent: those values are sent as typed). */
  hostedUrl?: HostedUrlResolver;
  /**
   * The input will be checked against a schema: a single source is then parsed once, for both the
   * syntax check and the schema check, instead of scanned and parsed again.
   */
  forSchemaCheck?: boolean;
  /** What the caller tells about text that is no JSON (how to give a model's input). */
  notJsonHint?: string;
}

export interface BuiltInput {
  bytes: Buffer;
  /** The exact value (numbers kept as written). */
  value: JsonObject;
  /** The value as JSON.parse reads it (numbers as doubles): what the schema check looks at. */
  plain: unknown;
}

function parseObject(text: string, origin: string, hint = ''): JsonObject {
  let value: unknown;
  try {
    value = parseJsonExact(text);
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new UsageError(`${origin}: ${err.message}`);
    throw notJsonError(text, origin, hint, err);
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
function checkObject({ bytes, origin }: InputBytes, parse: boolean, hint?: string): unknown {
  if (!parse && isCertainlyJsonObject(bytes)) return undefined;
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    parseObject(text, origin, hint); // throws the precise message
  }
  if (!isObject(value) || MAYBE_OVERFLOW.test(text)) parseObject(text, origin, hint);
  return value;
}

/** A BuiltInput sent as its bytes, its values read from them when first asked for. */
function sentAsIs(only: InputBytes, parsed: unknown, hint?: string): BuiltInput {
  let plain = parsed;
  return {
    bytes: only.bytes,
    get value() {
      return parseObject(only.bytes.toString('utf8'), only.origin, hint);
    },
    get plain() {
      plain ??= JSON.parse(only.bytes.toString('utf8'));
      return plain;
    },
  };
}

export async function buildInput(sources: InputSources): Promise<BuiltInput> {
  const { base, pairs, doc, notJsonHint: hint } = sources;
  const data = typeof sources.data === 'string' ? { bytes: Buffer.from(sources.data), origin: '-d' } : sources.data;
  if (pairs.length === 0 && (base === undefined) !== (data === undefined)) {
    const only = (base ?? data)!;
    return sentAsIs(only, checkObject(only, sources.forSchemaCheck ?? false, hint), hint);
  }
  const value: JsonObject = base ? parseObject(base.bytes.toString('utf8'), base.origin, hint) : {};
  if (data !== undefined) Object.assign(value, parseObject(data.bytes.toString('utf8'), data.origin, hint));
  if (pairs.length > 0) await (await import('./input-pairs.js')).applyPairs(value, pairs, doc, sources.cwd, sources.hostedUrl);
  const bytes = jsonBytes(value);
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
