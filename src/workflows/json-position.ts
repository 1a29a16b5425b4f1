// Where a JSON text first goes wrong, as line and column, for "flow.json:12:5: ..." messages.
// JSON.parse's messages name a position only sometimes (and only as an offset), so this walks the
// grammar itself and stops at the first character that cannot continue it.

import { UsageError } from '../errors.js';

export interface JsonProblem {
  offset: number;
  line: number;
  column: number;
  message: string;
}

class Stop extends Error {
  constructor(readonly offset: number, message: string) {
    super(message);
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);

function describe(ch: string | undefined): string {
  if (ch === undefined) return 'end of input';
  // Shown as it is, a control character or an undecodable byte prints as nothing (`found ""`).
  if (ch === '\ufffd') return 'bytes that are not UTF-8 text (the file looks binary)';
  const code = ch.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')} (the file looks binary, not text)`;
  return JSON.stringify(ch);
}

class Walker {
  i = 0;
  constructor(private readonly s: string) {}

  skipWs(): void {
    while (WS.has(this.s[this.i]!)) this.i++;
  }

  fail(expected: string): never {
    throw new Stop(this.i, `expected ${expected}, found ${describe(this.s[this.i])}`);
  }

  value(depth: number): void {
    if (depth > 1000) throw new Stop(this.i, 'nesting too deep');
    this.skipWs();
    const ch = this.s[this.i];
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
    if (ch === '"') return this.string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    this.fail('a value');
  }

  object(depth: number): void {
    this.i++;
    this.skipWs();
    if (this.s[this.i] === '}') return void this.i++;
    for (;;) {
      this.skipWs();
      if (this.s[this.i] !== '"') this.fail('a double-quoted property name');
      this.string();
      this.skipWs();
      if (this.s[this.i] !== ':') this.fail("':' after the property name");
      this.i++;
      this.value(depth + 1);
      this.skipWs();
      const ch = this.s[this.i];
      if (ch === '}') return void this.i++;
      if (ch !== ',') this.fail("',' or '}'");
      this.i++;
    }
  }

  array(depth: number): void {
    this.i++;
    this.skipWs();
    if (this.s[this.i] === ']') return void this.i++;
    for (;;) {
      this.value(depth + 1);
      this.skipWs();
      const ch = this.s[this.i];
      if (ch === ']') return void this.i++;
      if (ch !== ',') this.fail("',' or ']'");
      this.i++;
    }
  }

  string(): void {
    this.i++;
    for (;;) {
      const ch = this.s[this.i];
      if (ch === undefined) this.fail('a closing \'"\'');
      if (ch === '"') return void this.i++;
      if (ch < ' ') throw new Stop(this.i, 'a control character inside a string (escape it)');
      if (ch === '\\') {
        const esc = this.s[this.i + 1];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i + 2, this.i + 6))) throw new Stop(this.i, 'a \\u escape needs four hex digits');
          this.i += 6;
          continue;
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) throw new Stop(this.i, `an invalid escape \\${esc ?? ''}`);
        this.i += 2;
        continue;
      }
      this.i++;
    }
  }

  number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m || m[0] === '-' || m[0] === '') this.fail('a number');
    this.i += m[0].length;
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  // Columns count characters (code points), as editors show them.
  return { line, column: [...text.slice(lineStart, offset)].length + 1 };
}

/** The first problem of a JSON text, or undefined when it is valid JSON. */
export function findJsonProblem(text: string): JsonProblem | undefined {
  const walker = new Walker(text);
  try {
    walker.value(0);
    walker.skipWs();
    if (walker.i < text.length) walker.fail('end of input after the value');
    return undefined;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    return { offset: err.offset, ...lineAndColumn(text, err.offset), message: err.message };
  }
}

/**
 * The one wording of text that is not JSON, whatever command read it (`jobs submit FILE`,
 * `models run -d @FILE`): where it first goes wrong as SOURCE:LINE:COLUMN, and what would help.
 */
export function notJsonError(text: string, source: string, hint: string, cause: unknown, problem = findJsonProblem(text)): UsageError {
  if (problem) return new UsageError(`${source}:${problem.line}:${problem.column}: not valid JSON: ${problem.message}`, hint);
  return new UsageError(`${source}: not valid JSON (${(cause as Error).message})`, hint);
}
