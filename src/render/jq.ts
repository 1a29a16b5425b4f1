// `--jq EXPR`: the command's JSON output, run through real jq (jq-wasm: jq 1.8 compiled to
// WebAssembly and inlined in the module, loaded only when the flag is given). As gh does it: strings print raw, every
// result on its own line. The command writes into JqOutput instead of stdout; each JSON document
// (each NDJSON line of a stream) is filtered as soon as it is complete.
import { Writable } from 'node:stream';
import { UsageError, WesError, ExitCode } from '../errors.js';
import { sanitize } from '../util/sanitize.js';

type JqRun = (input: string, filter: string, flags?: string[]) => Promise<{ stdout: string; stderr: string; exitCode: number }>;

/** jq's exit status for an expression that does not compile. */
const JQ_COMPILE_ERROR = 3;

let loaded: Promise<JqRun> | undefined;
function jq(): Promise<JqRun> {
  // The inline build carries its WebAssembly in the module: nothing is read from disk beside it.
  loaded ??= import('jq-wasm/inline').then((m) => m.raw);
  return loaded;
}

/** jq's own first line, without the "at <top-level>, line N" that points into the wrapper. */
function jqMessage(stderr: string): string {
  const first = stderr.split('\n')[0] ?? stderr;
  return sanitize(first.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/ at <top-level>, line \d+(?:, column \d+)?:?$/, ''));
}

/**
 * What is wrong with the expression itself, from jq's errors about the wrapper around it (lines 2
 * to `exprLines` + 1 are the expression): an error inside is told at its place in the expression;
 * one that jq only notices at the wrapper's own text means the expression ended unfinished or
 * left a bracket open. The wrapper's tokens never show.
 */
function compileProblem(stderr: string, exprLines: number): string {
  for (const match of stderr.matchAll(/^jq: error: (.*) at <top-level>, line (\d+), column (\d+):?$/gm)) {
    const line = Number(match[2]) - 1;
    if (line < 1 || line > exprLines) continue;
    const where = exprLines > 1 ? `line ${line}, column ${match[3]}` : `column ${match[3]}`;
    return sanitize(`${match[1]!.replace(/, expecting end of file$/, '')} (${where})`);
  }
  return 'syntax error: the expression ends unfinished, or its brackets or parentheses do not pair up';
}

/**
 * Exit 2 before any request when EXPR does not compile. The expression is compiled inside a
 * branch that never runs, so nothing it does (error, input, halt) happens here.
 */
export async function checkJqExpression(expr: string): Promise<void> {
  if (expr.trim() === '') throw new UsageError('--jq needs an expression', "for example --jq '.id' or --jq '.outputs[].name'");
  const result = await (await jq())('null', `if false then (\n${expr}\n) else empty end`, ['-c']);
  if (result.exitCode === JQ_COMPILE_ERROR) {
    throw new UsageError(`--jq: the expression does not compile: ${compileProblem(result.stderr, expr.split('\n').length)}`, 'jq syntax is described at https://jqlang.org/manual/; quote the expression in single quotes for the shell');
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
    const { stdout, stderr, exitCode } = await (await jq())(doc, this.expr, ['-r', '-c']);
    // Results before a runtime error are printed, as jq prints them.
    if (stdout !== '') {
      const text = stdout.endsWith('\n') ? stdout : stdout + '\n';
      // Raw strings come from the service: on a terminal they must not act on it.
      this.target.write(this.targetIsTTY ? sanitize(text) : text);
    }
    if (exitCode !== 0) this.failure = new JqFilterError(jqMessage(stderr) || `jq exited with status ${exitCode}`);
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
