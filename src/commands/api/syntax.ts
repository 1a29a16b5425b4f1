// The forms of `wes api`'s -f/-F parameters and -H headers, checked while the command line is
// read (a malformed one is a usage error before anything is read or sent). Reading -F @FILE
// values happens later, in fields.ts.
import { UsageError } from '../../errors.js';

export interface Field {
  key: string;
  /** Appends to an array (`key[]=value`) instead of setting the key. */
  append: boolean;
  value: unknown;
}

export function splitField(raw: string, flag: string): { key: string; append: boolean; text: string } {
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

/** -F as typed, once its KEY=VALUE form is checked (its value is read when the request is built). */
export function typedFieldText(raw: string): string {
  splitField(raw, '-F');
  return raw;
}

/** Whether a -F value reads standard input (`KEY=@-`). */
export function readsStdin(raw: string): boolean {
  return splitField(raw, '-F').text === '@-';
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** -H "Name: value" as [lower-cased name, value]. */
export function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon > 0 ? raw.slice(0, colon).trim() : '';
  const value = colon > 0 ? raw.slice(colon + 1).trim() : '';
  if (!HEADER_NAME.test(name) || /[\r\n\0]/.test(value)) {
    throw new UsageError(`-H takes "Name: value", got ${JSON.stringify(raw)}`, `for example -H 'Accept: text/plain'`);
  }
  return [name.toLowerCase(), value];
}
