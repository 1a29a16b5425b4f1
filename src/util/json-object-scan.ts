// A syntax check of JSON bytes that builds nothing: `models run` sends an --input file byte for
// byte and only needs to know that it is one JSON object. Decoding a 5 MB body to a string and
// JSON.parse-ing it took ~27 ms in a fresh process and left a tree of objects and a 10 MB string
// for the GC (peak RSS 95 MB); this scan reads the bytes once and leaves nothing. It answers
// "certainly" or "not sure": every doubt (a syntax error, a raw control character, deep nesting,
// an exponent that may overflow a double) goes to the full parsers, which word the refusal, so the
// scan never decides a refusal.
//
// It is a table-driven automaton: one table load per byte in a small loop. A scan runs once per
// process, so what it costs is mostly the time before V8 has optimised it, spent in the
// interpreter: the hand-written scanner it replaces was one large function whose first TurboFan
// compile took 34-49 ms on the loaded 2-core bench machine (this loop's: 16-43 ms), and a 5 MB
// body cost 51 ms of CPU in a fresh process against 38 ms now (bench/RESULTS.md, issue 40).

const MAX_DEPTH = 512;

// The states. Those after a value differ by the container the value is in (…_O in an object, …_A
// in an array), so the byte that ends a number or a literal leads to the right next state and a
// closer of the wrong kind fails where it is read.
const enum S {
  START, // before the top-level object
  DONE, // after it
  OBJECT_FIRST, // after `{`: a key or `}`
  KEY, // after `,` in an object
  KEY_STRING, KEY_ESCAPE, KEY_U1, KEY_U2, KEY_U3, KEY_U4,
  COLON, // after a key
  // From here on, one state per container kind: the `_A` state is the `_O` state + 1.
  VALUE_O, VALUE_A, // after `:` or `,`
  STRING_O, STRING_A, ESCAPE_O, ESCAPE_A, U1_O, U1_A, U2_O, U2_A, U3_O, U3_A, U4_O, U4_A,
  MINUS_O, MINUS_A, ZERO_O, ZERO_A, INTEGER_O, INTEGER_A, DOT_O, DOT_A, FRACTION_O, FRACTION_A,
  EXPONENT_O, EXPONENT_A, // after e or E
  EXPONENT_NEGATIVE_O, EXPONENT_NEGATIVE_A, NEGATIVE_DIGITS_O, NEGATIVE_DIGITS_A,
  EXPONENT_PLUS_O, EXPONENT_PLUS_A, // after e+: a digit must follow
  EXPONENT_ZEROS_O, EXPONENT_ZEROS_A, // leading zeros of a positive exponent
  EXPONENT_DIGIT1_O, EXPONENT_DIGIT1_A, EXPONENT_DIGIT2_O, EXPONENT_DIGIT2_A, // its significant digits
  T_R_O, T_R_A, T_U_O, T_U_A, T_E_O, T_E_A, F_A_O, F_A_A, F_L_O, F_L_A, F_S_O, F_S_A, F_E_O, F_E_A,
  N_U_O, N_U_A, N_L1_O, N_L1_A, N_L2_O, N_L2_A,
  AFTER_O, AFTER_A, // after a value
  ARRAY_FIRST, // after `[`: a value or `]`
  // Not states: what the loop does on the byte.
  OPEN_OBJECT, OPEN_ARRAY, CLOSE, FAIL,
}

const COUNT = S.OPEN_OBJECT;
const SPACE = ' \t\n\r';
const DIGITS = '0123456789';
const HEX = '0123456789abcdefABCDEF';

let table: Uint8Array | undefined;

/** The transition table, state × byte (18 K entries), built on the first scan in well under a millisecond. */
function transitions(): Uint8Array {
  const t = new Uint8Array(COUNT * 256).fill(S.FAIL);
  const on = (state: number, chars: string, next: number) => {
    for (let i = 0; i < chars.length; i++) t[state * 256 + chars.charCodeAt(i)] = next;
  };
  /** A string's body: any byte but a control byte, `"` and `\` (UTF-8 sequences are read as bytes). */
  const stringBody = (state: number) => t.fill(state, state * 256 + 0x20, state * 256 + 256);
  on(S.START, SPACE, S.START);
  on(S.START, '{', S.OPEN_OBJECT);
  on(S.DONE, SPACE, S.DONE);
  for (const s of [S.OBJECT_FIRST, S.KEY]) {
    on(s, SPACE, s);
    on(s, '"', S.KEY_STRING);
  }
  on(S.OBJECT_FIRST, '}', S.CLOSE);
  stringBody(S.KEY_STRING);
  on(S.KEY_STRING, '"', S.COLON);
  on(S.KEY_STRING, '\\', S.KEY_ESCAPE);
  on(S.KEY_ESCAPE, '"\\/bfnrt', S.KEY_STRING);
  on(S.KEY_ESCAPE, 'u', S.KEY_U1);
  on(S.KEY_U1, HEX, S.KEY_U2);
  on(S.KEY_U2, HEX, S.KEY_U3);
  on(S.KEY_U3, HEX, S.KEY_U4);
  on(S.KEY_U4, HEX, S.KEY_STRING);
  on(S.COLON, SPACE, S.COLON);
  on(S.COLON, ':', S.VALUE_O);
  on(S.ARRAY_FIRST, ']', S.CLOSE);
  for (const k of [0, 1]) {
    const [closer, afterComma] = k === 0 ? ['}', S.KEY] : [']', S.VALUE_A];
    const after = S.AFTER_O + k;
    /** A value may end here: what follows it. */
    const ends = (state: number) => {
      on(state, SPACE, after);
      on(state, ',', afterComma);
      on(state, closer, S.CLOSE);
    };
    for (const s of k === 0 ? [S.VALUE_O] : [S.VALUE_A, S.ARRAY_FIRST]) {
      on(s, SPACE, s);
      on(s, '"', S.STRING_O + k);
      on(s, '{', S.OPEN_OBJECT);
      on(s, '[', S.OPEN_ARRAY);
      on(s, '-', S.MINUS_O + k);
      on(s, '0', S.ZERO_O + k);
      on(s, '123456789', S.INTEGER_O + k);
      on(s, 't', S.T_R_O + k);
      on(s, 'f', S.F_A_O + k);
      on(s, 'n', S.N_U_O + k);
    }
    stringBody(S.STRING_O + k);
    on(S.STRING_O + k, '"', after);
    on(S.STRING_O + k, '\\', S.ESCAPE_O + k);
    on(S.ESCAPE_O + k, '"\\/bfnrt', S.STRING_O + k);
    on(S.ESCAPE_O + k, 'u', S.U1_O + k);
    on(S.U1_O + k, HEX, S.U2_O + k);
    on(S.U2_O + k, HEX, S.U3_O + k);
    on(S.U3_O + k, HEX, S.U4_O + k);
    on(S.U4_O + k, HEX, S.STRING_O + k);
    on(S.MINUS_O + k, '0', S.ZERO_O + k);
    on(S.MINUS_O + k, '123456789', S.INTEGER_O + k);
    on(S.INTEGER_O + k, DIGITS, S.INTEGER_O + k);
    for (const s of [S.ZERO_O + k, S.INTEGER_O + k]) {
      ends(s);
      on(s, '.', S.DOT_O + k);
      on(s, 'eE', S.EXPONENT_O + k);
    }
    on(S.DOT_O + k, DIGITS, S.FRACTION_O + k);
    on(S.FRACTION_O + k, DIGITS, S.FRACTION_O + k);
    on(S.FRACTION_O + k, 'eE', S.EXPONENT_O + k);
    ends(S.FRACTION_O + k);
    on(S.EXPONENT_O + k, '-', S.EXPONENT_NEGATIVE_O + k);
    on(S.EXPONENT_O + k, '+', S.EXPONENT_PLUS_O + k);
    for (const s of [S.EXPONENT_O + k, S.EXPONENT_PLUS_O + k, S.EXPONENT_ZEROS_O + k]) {
      on(s, '0', S.EXPONENT_ZEROS_O + k);
      on(s, '123456789', S.EXPONENT_DIGIT1_O + k);
    }
    on(S.EXPONENT_NEGATIVE_O + k, DIGITS, S.NEGATIVE_DIGITS_O + k);
    on(S.NEGATIVE_DIGITS_O + k, DIGITS, S.NEGATIVE_DIGITS_O + k);
    ends(S.NEGATIVE_DIGITS_O + k);
    on(S.EXPONENT_DIGIT1_O + k, DIGITS, S.EXPONENT_DIGIT2_O + k);
    // A third significant digit of a positive exponent may overflow a double: not sure (FAIL).
    for (const s of [S.EXPONENT_ZEROS_O + k, S.EXPONENT_DIGIT1_O + k, S.EXPONENT_DIGIT2_O + k]) ends(s);
    /** true, false, null: one state per letter after the first (states of a kind are 2 apart). */
    const literal = (first: number, rest: string) => {
      for (let i = 0; i < rest.length; i++) on(first + 2 * i, rest[i]!, i === rest.length - 1 ? after : first + 2 * (i + 1));
    };
    literal(S.T_R_O + k, 'rue');
    literal(S.F_A_O + k, 'alse');
    literal(S.N_U_O + k, 'ull');
    ends(after);
  }
  return t;
}

/**
 * True only when `bytes`, read as UTF-8, are certainly one JSON object that JSON.parse accepts and
 * whose numbers all fit a double; false when unsure.
 */
export function isCertainlyJsonObject(bytes: Uint8Array): boolean {
  const t = (table ??= transitions());
  const open = new Uint8Array(MAX_DEPTH); // 0: an object, 1: an array
  let depth = 0;
  let s: number = S.START;
  for (let i = 0, n = bytes.length; i < n; i++) {
    s = t[(s << 8) | bytes[i]!]!;
    if (s < COUNT) continue;
    if (s === S.FAIL) return false;
    if (s === S.CLOSE) {
      depth--;
      s = depth === 0 ? S.DONE : S.AFTER_O + open[depth - 1]!;
    } else {
      if (depth === MAX_DEPTH) return false;
      const kind = s - S.OPEN_OBJECT;
      open[depth++] = kind;
      s = kind === 0 ? S.OBJECT_FIRST : S.ARRAY_FIRST;
    }
  }
  return s === S.DONE;
}
