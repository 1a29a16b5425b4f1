// `--jq EXPR`: the command's JSON output, run through real jq (jq-wasm: jq compiled to
// WebAssembly, loaded only when the flag is given). As gh does it: strings print raw, every
// result on its own line. The command writes into JqOutput instead of stdout; each JSON document
// (each NDJSON line of a stream) is filtered as soon as it is complete.
import { Writable } from 'node:stream';
import { UsageError, WesError, ExitCode } from '../errors.js';
import { sanitize } from './sanitize.js';

type JqRaw = (input: string, filter: string, flags?: string[]) => Promise<string>;

let loaded: Promise<JqRaw> | undefined;
function jq(): Promise<JqRaw> {
  loaded ??= import('jq-wasm').then((m) => (m.raw ?? (m as unknown as { default: { raw: JqRaw } }).default.raw) as JqRaw);
  return loaded;
}

/** jq's own first line, without the program echo and the "at <top-level>, line N" of the wrapper. */
function jqMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const first = text.split('\n')[0] ?? text;
  return sanitize(first.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/ at <top-level>, line \d+:?$/, ''));
}

/**
 * Exit 2 before any request when EXPR does not compile. The expression is compiled inside a
 * branch that never runs, so nothing it does (error, input, halt) happens here.
 */
export async function checkJqExpression(expr: string): Promise<void> {
  if (expr.trim() === '') throw new UsageError('--jq needs an expression', "for example --jq '.id' or --jq '.outputs[].name'");
  const raw = await jq();
  try {
    await raw('null', `if false then (\n${expr}\n) else empty end`, ['-c']);
  } catch (err) {
    throw new UsageError(`--jq: the expression does not compile: ${jqMessage(err)}`, 'jq syntax is described at https://jqlang.org/manual/; quote the expression in single quotes for the shell');
  }
}

export class JqFilterError extends WesError {
  constructor(message: string) {
    super(`--jq: ${message}`, { exitCode: ExitCode.ERROR, code: 'jq_error' });
  }
}

/**
 * Collects what a command prints and writes jq's results to `target`. A document is taken as
 * complete when a write ends in a newline and the text so far parses as JSON (commands write a
 * document, or an NDJSON line, per call); whatever is left at the end goes to jq as is, so jq
 * reports a document that is not JSON.
 */
export class JqOutput extends Writable {
  private pending = '';
  private failure: JqFilterError | undefined;

  constructor(
    private readonly expr: string,
    private readonly target: Writable,
    private readonly targetIsTTY: boolean,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (!this.pending.endsWith('\n') || !parses(this.pending)) return done();
    const doc = this.pending;
    this.pending = '';
    this.apply(doc).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    const rest = this.pending;
    this.pending = '';
    if (rest.trim() === '') return done();
    this.apply(rest).then(() => done(), done);
  }

  /** Ends the stream and waits for the last results; throws the first jq error. */
  async finish(): Promise<void> {
    if (!this.writableEnded) await new Promise<void>((resolve, reject) => this.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (this.failure) throw this.failure;
  }

  private async apply(doc: string): Promise<void> {
    if (this.failure) return;
    let out: string;
    try {
      out = await (await jq())(doc, this.expr, ['-r', '-c']);
    } catch (err) {
      this.failure = new JqFilterError(jqMessage(err));
      return;
    }
    if (out === '') return;
    const text = out.endsWith('\n') ? out : out + '\n';
    // Raw strings come from the service: on a terminal they must not act on it.
    this.target.write(this.targetIsTTY ? sanitize(text) : text);
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
