// JSON that keeps every number as written. JSON.parse turns a 64-bit seed into the nearest double
// (…993 becomes …992) and JSON.stringify writes an overflow as `null`; workflows and model inputs
// must reach the service byte-exact in their numbers, so literals that a double would change stay
// lossless-json `LosslessNumber`s carrying their text, and are written back verbatim.
import { getUnsafeNumberReason, isLosslessNumber, LosslessNumber, parse, stringify, UnsafeNumberReason } from 'lossless-json';
import { setAsideLongStrings } from './exact-json-long-strings.js';

export { LosslessNumber, isLosslessNumber };

const SHOWN_LITERAL = 40;

/** Well-formed JSON that parseJsonExact refuses to read: a usage error, never "not valid JSON" or a string. */
export class JsonRefusedError extends RangeError {}

/** A numeric literal no JSON reader can hold (it would become Infinity). */
export class JsonNumberRangeError extends JsonRefusedError {
  constructor(readonly literal: string) {
    const shown = literal.length > SHOWN_LITERAL ? `${literal.slice(0, SHOWN_LITERAL)}… (${literal.length} characters)` : literal;
    super(`the number ${shown} is too large for JSON (it would become Infinity); write it as a string or a smaller number`);
    this.name = 'JsonNumberRangeError';
  }
}

/** Arrays or objects nested deeper than the (recursive) exact parser's stack holds: thousands of
 * levels, where the service itself refuses more than 512. */
export class JsonTooDeepError extends JsonRefusedError {
  constructor() {
    super('the JSON nests arrays or objects too deeply to read (thousands of levels); the service accepts at most 512');
    this.name = 'JsonTooDeepError';
  }
}

function exactNumber(literal: string): number | LosslessNumber {
  const reason = getUnsafeNumberReason(literal);
  if (reason === undefined) return Number(literal);
  if (reason === UnsafeNumberReason.overflow) throw new JsonNumberRangeError(literal);
  return new LosslessNumber(literal);
}

/**
 * Parses JSON text. Numbers a double holds exactly are `number`; any other literal (integers beyond
 * 2^53, more digits than a double keeps, underflows) is a `LosslessNumber` keeping its text.
 * Throws SyntaxError for text that is not JSON, JsonNumberRangeError for an overflowing literal and
 * JsonTooDeepError for nesting that overflows the stack (both JsonRefusedError).
 */
export function parseJsonExact(text: string): unknown {
  const setAside = setAsideLongStrings(text, isLosslessNumber);
  if (setAside) {
    try {
      return setAside.restore(parse(setAside.text, null, exactNumber));
    } catch {
      // The original text says what is wrong, in its own positions.
    }
  }
  try {
    return parse(text, null, exactNumber);
  } catch (err) {
    if (err instanceof RangeError && !(err instanceof JsonRefusedError)) throw new JsonTooDeepError();
    throw err;
  }
}

/** Writes JSON like JSON.stringify, with each LosslessNumber (and bigint) written as its exact literal. */
export function stringifyJsonExact(value: unknown, indent?: number | string): string {
  const text = stringify(value, null, indent);
  if (text === undefined) throw new TypeError('stringifyJsonExact: the value has no JSON form');
  return text;
}

/** A JSON number as parseJsonExact gives it: a `number` or a `LosslessNumber`. */
export function isJsonNumber(v: unknown): v is number | LosslessNumber {
  return typeof v === 'number' || isLosslessNumber(v);
}
