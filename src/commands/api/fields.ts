// The parts of a `wes api` request read when it is built: -F values (@FILE) and the --input body,
// as fields for the query or the JSON body. Local files that cannot be read are usage errors (exit 2).
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../../errors.js';
import { splitField, type Field } from './syntax.js';
import { whyUnreadable } from '../../files/unreadable.js';

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
    throw new UsageError(`cannot read ${what} ${path}: ${whyUnreadable(err)}`);
  }
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
