// Long string values set aside before the exact parse. lossless-json reads a string one character
// at a time, appending each to the result: a 9 MiB string (a workflow carrying a large prompt or
// embedded data) took 2.1 s of CPU, most of it the garbage collector, where JSON.parse takes 10 ms.
// Each long string literal that is a value (not a key) is decoded by JSON.parse, and the exact
// parser reads a short stand-in in its place; the stand-ins are then swapped back. Numbers, nesting,
// duplicate keys and every other literal are still read by the exact parser; when anything goes
// wrong on this path (a literal JSON.parse refuses, a syntax error, a duplicate key, nesting too
// deep), the caller parses the original text instead, so errors are the exact parser's own.
/** Literals this long or longer (quotes included) are set aside. */
export const LONG_STRING = 1024;

export interface SetAside {
  /** The text with each long string value replaced by its stand-in's literal. */
  text: string;
  /** Swaps the stand-ins in a parsed value back for the strings they stand for. */
  restore: (value: unknown) => unknown;
}

/**
 * The text with its long string values set aside, or undefined when it has none (or a literal
 * that JSON.parse refuses: the exact parser reports that one itself).
 */
export function setAsideLongStrings(text: string, isNumber: (v: object) => boolean): SetAside | undefined {
  // A stand-in begins with a NUL, which a JSON text can only hold as the escape \u0000: where there is
  // none, no string of the document can be taken for a stand-in.
  if (text.includes('\\u0000')) return undefined;
  const spans = longValueLiterals(text);
  if (spans.length === 0) return undefined;
  const prefix = '\u0000wes-set-aside-';
  const standIns = new Map<string, string>();
  const byValue = new Map<string, string>();
  const pieces: string[] = [];
  let from = 0;
  for (const [start, end] of spans) {
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end));
    } catch {
      return undefined;
    }
    // One stand-in per distinct value, so duplicate keys compare as their strings do.
    let standIn = byValue.get(value as string);
    if (standIn === undefined) {
      standIn = `${prefix}${byValue.size}`;
      byValue.set(value as string, standIn);
      standIns.set(standIn, value as string);
    }
    pieces.push(text.slice(from, start), JSON.stringify(standIn));
    from = end;
  }
  pieces.push(text.slice(from));
  return { text: pieces.join(''), restore: (value) => swapBack(value, standIns, isNumber) };
}

/** [start, end) of each string literal of `text` at least LONG_STRING long that is not an object key. */
function longValueLiterals(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('"', at);
    if (open < 0) return spans;
    const close = closingQuote(text, open);
    if (close < 0) return spans;
    if (close + 1 - open >= LONG_STRING && !isKey(text, close + 1)) spans.push([open, close + 1]);
    at = close + 1;
  }
}

/** The quote that ends the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Whether the next character after JSON whitespace at `from` is a colon. */
function isKey(text: string, from: number): boolean {
  let i = from;
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
  return text.charCodeAt(i) === 0x3a;
}

function swapBack(root: unknown, standIns: Map<string, string>, isNumber: (v: object) => boolean): unknown {
  const swap = (v: unknown) => (typeof v === 'string' ? standIns.get(v) : undefined);
  const top = swap(root);
  if (top !== undefined) return top;
  // A loop, not recursion: the exact parser reads nesting deeper than a recursive walk could.
  const pending: object[] = typeof root === 'object' && root !== null ? [root] : [];
  while (pending.length > 0) {
    const node = pending.pop()! as Record<string, unknown>;
    if (isNumber(node)) continue;
    for (const key of Object.keys(node)) {
      const child = node[key];
      const original = swap(child);
      // defineProperty: a "__proto__" key is an own property, which assigning it would not keep.
      if (original !== undefined) Object.defineProperty(node, key, { value: original, writable: true, enumerable: true, configurable: true });
      else if (typeof child === 'object' && child !== null) pending.push(child);
    }
  }
  return root;
}
