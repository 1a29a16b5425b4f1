// A syntax check of JSON bytes that builds nothing: `models run` sends an --input file byte for
// byte and only needs to know that it is one JSON object. Decoding a 5 MB body to a string and
// JSON.parse-ing it took ~27 ms in a fresh process and left a tree of objects and a 10 MB string
// for the GC (peak RSS 95 MB); this scan reads the bytes once, allocates a small stack, takes
// ~12 ms and leaves nothing (75 MB). It answers "certainly" or "not sure": every doubt (a syntax
// error, a raw control character, deep nesting, an exponent that may overflow a double) goes to
// the full parsers, which word the refusal, so the scan never decides a refusal.

const MAX_DEPTH = 512;
// A const enum, not module constants: esbuild inlines its members, while a module-level constant
// is a context load on every byte until V8 optimises the loop (the scan took 16 ms instead of 12).
const enum Byte {
  QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, OPEN_OBJECT = 0x7b, OPEN_ARRAY = 0x5b,
  MINUS = 0x2d, PLUS = 0x2b, DOT = 0x2e, ZERO = 0x30, ONE = 0x31, NINE = 0x39,
}
const SIMPLE_ESCAPES = new Set([Byte.QUOTE, Byte.BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]); // " \ / b f n r t

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= Byte.ZERO && c <= Byte.NINE;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The index after the escape that starts at `i` (a backslash), or -1. */
function endOfEscape(b: Uint8Array, i: number): number {
  const e = b[i + 1];
  if (e === 0x75) return isHex(b[i + 2]) && isHex(b[i + 3]) && isHex(b[i + 4]) && isHex(b[i + 5]) ? i + 6 : -1;
  return e !== undefined && SIMPLE_ESCAPES.has(e) ? i + 2 : -1;
}

/** The index after true, false or null at `i`, or -1. */
function endOfLiteral(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === 0x74) return b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65 ? i + 4 : -1;
  if (c === 0x66) return b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65 ? i + 5 : -1;
  if (c === 0x6e) return b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c ? i + 4 : -1;
  return -1;
}

/**
 * True only when `bytes`, read as UTF-8, are certainly one JSON object that JSON.parse accepts and
 * whose numbers all fit a double; false when unsure. Strings and numbers are scanned inline: a call
 * for each costs more than the scan itself until V8 has optimised the function.
 */
export function isCertainlyJsonObject(bytes: Uint8Array): boolean {
  const b = bytes;
  const n = b.length;
  const open = new Uint8Array(MAX_DEPTH);
  let depth = 0;
  let i = 0;
  let c = 0;
  while (i < n && isSpace(b[i])) i++;
  if (b[i] !== Byte.OPEN_OBJECT) return false;
  let wantKey = false;
  for (;;) {
    while (i < n && isSpace((c = b[i]))) i++;
    if (i >= n) return false;
    if (c === Byte.QUOTE) {
      for (i++; ; ) {
        if (i >= n) return false;
        c = b[i];
        if (c === Byte.QUOTE) break;
        if (c === Byte.BACKSLASH) {
          if ((i = endOfEscape(b, i)) < 0) return false;
        } else if (c < 0x20) {
          return false; // a control byte, raw inside a string
        } else i++;
      }
      i++;
      if (wantKey) {
        while (i < n && isSpace(b[i])) i++;
        if (b[i] !== Byte.COLON) return false;
        i++;
        wantKey = false;
        continue;
      }
    } else if (wantKey) {
      return false;
    } else if (c === Byte.OPEN_OBJECT || c === Byte.OPEN_ARRAY) {
      if (depth === MAX_DEPTH) return false;
      open[depth++] = c;
      for (i++; i < n && isSpace(b[i]); ) i++;
      if (b[i] !== c + 2) {
        wantKey = c === Byte.OPEN_OBJECT;
        continue;
      }
      i++;
      depth--;
    } else if (c === Byte.MINUS || isDigit(c)) {
      if (c === Byte.MINUS) c = b[++i];
      if (c === Byte.ZERO) c = b[++i];
      else if (c >= Byte.ONE && c <= Byte.NINE) do c = b[++i]; while (isDigit(c));
      else return false;
      if (c === Byte.DOT) {
        if (!isDigit(b[++i])) return false;
        do c = b[++i]; while (isDigit(c));
      }
      if (c === 0x65 || c === 0x45) {
        // A positive exponent of three digits or more may overflow a double: the exact parser names it.
        c = b[++i];
        const negative = c === Byte.MINUS;
        if (negative || c === Byte.PLUS) c = b[++i];
        if (!isDigit(c)) return false;
        while (c === Byte.ZERO) c = b[++i];
        const significant = i;
        while (isDigit(c)) c = b[++i];
        if (!negative && i - significant >= 3) return false;
      }
    } else if ((i = endOfLiteral(b, i)) < 0) {
      return false;
    }
    // After a value: close what ends here, then a comma leads to the next value or key.
    for (;;) {
      while (i < n && isSpace((c = b[i]))) i++;
      if (depth === 0) return i === n;
      if (i >= n) return false;
      if (c === open[depth - 1] + 2) {
        i++;
        depth--;
        continue;
      }
      if (c !== Byte.COMMA) return false;
      i++;
      wantKey = open[depth - 1] === Byte.OPEN_OBJECT;
      break;
    }
  }
}
