// The parts of a `wes api` request given on the command line: -f/-F parameters, -H headers and
// the --input body. Local files that cannot be read are usage errors (exit 2).
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../../errors.js';

export interface Field {
  key: string;
  /** Appends to an array (`key[]=value`) instead of setting the key. */
  append: boolean;
  value: unknown;
}

/** Reads a local file, or all of standard input for "-". */
export async function readLocal(path: string, stdin: Readable, what: string): Promise<Buffer> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(path);
  } catch (err) {
    throw new UsageError(`cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function splitField(raw: string, flag: string): { key: string; append: boolean; text: string } {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} takes KEY=VALUE, got ${JSON.stringify(raw)}`, `for example ${flag} limit=5`);
  const name = raw.slice(0, eq);
  const append = name.endsWith('[]');
  const key = append ? name.slice(0, -2) : name;
  if (!key) throw new UsageError(`${flag} takes KEY=VALUE, got ${JSON.stringify(raw)}`);
  return { key, append, text: raw.slice(eq + 1) };
}

/** -f: the value is a string, as typed. */
export function rawField(raw: string): Field {
  const { key, append, text } = splitField(raw, '-f');
  return { key, append, value: text };
}

/** -F: JSON when the value parses (numbers, true, false, null, objects, arrays); @FILE (or @-) reads a file as text. */
export async function typedField(raw: string, stdin: Readable): Promise<Field> {
  const { key, append, text } = splitField(raw, '-F');
  if (text.startsWith('@')) return { key, append, value: (await readLocal(text.slice(1), stdin, 'the file for')).toString('utf8') };
  try {
    return { key, append, value: JSON.parse(text) };
  } catch {
    return { key, append, value: text };
  }
}

/** The fields as one JSON object for a request body. */
export function fieldsObject(fields: Field[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!f.append) {
      out[f.key] = f.value;
      continue;
    }
    const current = out[f.key];
    out[f.key] = Array.isArray(current) ? [...current, f.value] : [f.value];
  }
  return out;
}

/** The fields as query parameters: strings as they are, anything else as JSON text. */
export function addQuery(url: URL, fields: Field[]): void {
  for (const f of fields) {
    const text = typeof f.value === 'string' ? f.value : JSON.stringify(f.value);
    if (f.append) url.searchParams.append(f.key, text);
    else url.searchParams.set(f.key, text);
  }
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** -H "Name: value" into a header map (names lower-cased). */
export function parseHeaders(raws: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of raws) {
    const colon = raw.indexOf(':');
    const name = colon > 0 ? raw.slice(0, colon).trim() : '';
    const value = colon > 0 ? raw.slice(colon + 1).trim() : '';
    if (!HEADER_NAME.test(name) || /[\r\n\0]/.test(value)) {
      throw new UsageError(`-H takes "Name: value", got ${JSON.stringify(raw)}`, `for example -H 'Accept: text/plain'`);
    }
    out[name.toLowerCase()] = value;
  }
  return out;
}
