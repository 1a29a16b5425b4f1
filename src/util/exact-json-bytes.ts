// A request body's bytes: exactly Buffer.from(stringifyJsonExact(value)), without making the text
// first. Making it copied a long string value (a workflow's inlined image or long notes) three
// times into fresh memory: its quoted JSON form, the joined text, then the UTF-8 bytes; a 9 MiB
// workflow's body took 190 ms of CPU, most of it the kernel mapping those pages. Here each long
// string that JSON writes as it is (no quote, backslash, control character or surrogate) is a
// short stand-in in the text, and goes into the one buffer of bytes straight from the string.
import { stringify } from 'lossless-json';
import { stringifyJsonExact } from './exact-json.js';
import { LONG_STRING } from './exact-json-long-strings.js';

/** Characters JSON.stringify writes otherwise than as they are (surrogates: a lone one is escaped). */
const NOT_VERBATIM = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A stand-in's text; its NUL is written `\u0000`, which no stand-in of ours and few strings hold. */
const STAND_IN = '\u0000wes-long-string-';
const STAND_IN_LITERAL = JSON.stringify(STAND_IN).slice(0, -1);

export function jsonBytes(value: unknown): Buffer {
  const long: string[] = [];
  const text = stringify(value, (_key: string, v: unknown) => {
    if (typeof v !== 'string' || v.length < LONG_STRING || NOT_VERBATIM.test(v)) return v;
    long.push(v);
    return `${STAND_IN}${long.length - 1}`;
  });
  if (long.length === 0 || text === undefined) return Buffer.from(stringifyJsonExact(value));
  // The stand-ins in the order they were written; any other string that looks like one (a value
  // holding that NUL and those words) and the bytes are made from the whole text instead.
  const pieces: string[] = [];
  let from = 0;
  for (const [i, s] of long.entries()) {
    const literal = `${STAND_IN_LITERAL}${i}"`;
    const at = text.indexOf(STAND_IN_LITERAL, from);
    if (at < 0 || !text.startsWith(literal, at)) return Buffer.from(stringifyJsonExact(value));
    pieces.push(text.slice(from, at), '"', s, '"');
    from = at + literal.length;
  }
  pieces.push(text.slice(from));
  if (text.indexOf(STAND_IN_LITERAL, from) >= 0) return Buffer.from(stringifyJsonExact(value));
  const bytes = Buffer.allocUnsafe(pieces.reduce((n, piece) => n + Buffer.byteLength(piece), 0));
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  return bytes;
}
