// -i KEY=VALUE pairs of `models run`, typed by the model's schema when one is known (a field's
// declared JSON types; `@file` values read, binary strings as data URIs). A field that takes a URL
// (`format: uri`) given `asset:ID` or `@FILE` gets a URL the service hosts, from the resolver the
// caller passes: partner models fetch their images by URL. Loaded only when pairs are given: a run
// from --input or -d alone does not load the schema-field helpers.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { guessMediaType } from '../../files/media-type.js';
import { UsageError } from '../../errors.js';
import { isLosslessNumber, JsonRefusedError, parseJsonExact } from '../../util/exact-json.js';
import { isObject, type JsonObject } from '../../protocol/openapi-document.js';
import { fieldTypes, inputFields, isBinaryString, isUriField, type InputField } from './schema-fields.js';
import { whyUnreadable } from '../../files/unreadable.js';

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

/** What a hosted URL is made from: an asset already on the service, or a local file to put there first. */
export type HostedSource = { kind: 'asset'; id: string } | { kind: 'file'; path: string };

/** Turns a source into a URL the service hosts, which carries no credential. */
export type HostedUrlResolver = (source: HostedSource) => Promise<string>;

const ASSET_PREFIX = 'asset:';

/** The source a URL field's value names (`asset:ID`, `@FILE`), or undefined for a value sent as typed. */
function hostedSource(raw: string, cwd: string | undefined): HostedSource | undefined {
  if (raw.startsWith(ASSET_PREFIX) && raw.length > ASSET_PREFIX.length) return { kind: 'asset', id: raw.slice(ASSET_PREFIX.length) };
  if (raw.startsWith('@') && raw.length > 1) return { kind: 'file', path: cwd ? resolve(cwd, raw.slice(1)) : raw.slice(1) };
  return undefined;
}

async function pairValue(pair: string, doc: JsonObject | undefined, fields: Map<string, InputField>, cwd: string | undefined, hosted: HostedUrlResolver | undefined): Promise<[string, unknown]> {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`-i expects KEY=VALUE, got ${JSON.stringify(pair)}`);
  const key = pair.slice(0, eq);
  const raw = pair.slice(eq + 1);
  const field = fields.get(key);
  const source = hosted && field && isUriField(doc, field.schema) ? hostedSource(raw, cwd) : undefined;
  if (source) return [key, await hosted!(source)];
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

/** Sets each pair on `value`, in order (a later pair wins). Without `hosted`, URL fields take their values as typed. */
export async function applyPairs(value: JsonObject, pairs: string[], doc: JsonObject | undefined, cwd: string | undefined, hosted?: HostedUrlResolver): Promise<void> {
  const fields = new Map(doc ? inputFields(doc).map((f) => [f.name, f] as const) : []);
  for (const pair of pairs) {
    const [key, typed] = await pairValue(pair, doc, fields, cwd, hosted);
    value[key] = typed;
  }
}
