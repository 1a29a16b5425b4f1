// One object decides what a command may write where: data to stdout, everything else to stderr;
// colour and live redraw only when the stream is a terminal and the user allows it.
import type { Readable, Writable } from 'node:stream';
import { toSafeJson } from '../util/safe-json.js';
import { sanitizeLine } from '../util/sanitize.js';
import { loadStyles, stylesFor, type TextStyles } from './styles.js';

/** A stream, or how to get it: process.stdin is made (a socket or file stream) when first read. */
export type LazyReadable = Readable | (() => Readable);

export interface IOStreamsInit {
  stdin: LazyReadable;
  stdout: Writable;
  stderr: Writable;
  /** Unset: asked of stdin itself, when a command first wants to know. */
  stdinIsTTY?: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  columns?: number;
  json?: boolean;
  /** --jq was given: the data is JSON for jq, but errors on a terminal are for the person there. */
  jq?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  noColor?: boolean;
}

/** Colour decision (README.md, "Configuration"): --no-color and NO_COLOR win, CLICOLOR_FORCE forces, CLICOLOR=0 disables. */
export function colorEnabled(isTTY: boolean, env: NodeJS.ProcessEnv, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '' && env.CLICOLOR_FORCE !== '0') return true;
  if (env.CLICOLOR === '0') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

function colourOf(init: IOStreamsInit, isTTY: boolean): boolean {
  return colorEnabled(isTTY, init.env, init.noColor ?? false);
}

export class IOStreams {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly json: boolean;
  /** Errors and stops as a JSON object on stderr (--json; --jq only when stderr is no terminal). */
  readonly jsonErrors: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  /** Styles for stdout and stderr text; identity functions when colour is off. */
  readonly outStyle: TextStyles;
  readonly errStyle: TextStyles;
  readonly columns: number;
  /** Where a transient line goes while a spinner owns the last line (see transient()). */
  private statusLine?: (line: string) => void;
  private input: LazyReadable;
  private inputIsTTY: boolean | undefined;

  /**
   * IOStreams with chalk loaded first when a stream gets colour (the constructor cannot wait for
   * it; off a terminal, or with NO_COLOR, chalk is never loaded).
   */
  static async open(init: IOStreamsInit): Promise<IOStreams> {
    await loadStyles(colourOf(init, init.stdoutIsTTY) || colourOf(init, init.stderrIsTTY));
    return new IOStreams(init);
  }

  /** Throws when a stream gets colour and chalk is not loaded yet: use open(). */
  constructor(init: IOStreamsInit) {
    this.input = init.stdin;
    this.stdout = init.stdout;
    this.stderr = init.stderr;
    this.inputIsTTY = init.stdinIsTTY;
    this.stdoutIsTTY = init.stdoutIsTTY;
    this.stderrIsTTY = init.stderrIsTTY;
    this.env = init.env;
    this.json = init.json ?? false;
    this.jsonErrors = this.json && !(init.jq && init.stderrIsTTY);
    this.quiet = init.quiet ?? false;
    this.verbose = init.verbose ?? false;
    this.columns = init.columns && init.columns > 20 ? init.columns : 80;
    this.outStyle = stylesFor(colourOf(init, init.stdoutIsTTY));
    this.errStyle = stylesFor(colourOf(init, init.stderrIsTTY));
  }

  /** Standard input; only a command that reads it makes process.stdin (~1.5 ms of every start otherwise). */
  get stdin(): Readable {
    if (typeof this.input === 'function') this.input = this.input();
    return this.input;
  }

  /** Whether stdin is a terminal (asked of the stream only when a command wants to know). */
  get stdinIsTTY(): boolean {
    this.inputIsTTY ??= Boolean((this.stdin as Partial<NodeJS.ReadStream>).isTTY);
    return this.inputIsTTY;
  }

  /** Whether spinners and live redraw may be used (stderr is a terminal and not --quiet). */
  get canAnimate(): boolean {
    return this.stderrIsTTY && !this.quiet && this.env.TERM !== 'dumb' && this.env.CI === undefined;
  }

  /** A line of data on stdout. */
  println(line = ''): void {
    this.stdout.write(line + '\n');
  }

  /** One JSON document (or NDJSON line) on stdout. */
  printJson(value: unknown, compact = false): void {
    this.stdout.write(toSafeJson(value, compact || !this.stdoutIsTTY ? undefined : 2) + '\n');
  }

  /** A line for humans on stderr (progress, hints, confirmations); hidden by --quiet. */
  info(line: string): void {
    if (!this.quiet) this.stderr.write(line + '\n');
  }

  /**
   * A passing state (a retry wait): one line on stderr, shown in place on a running spinner
   * instead of under it; hidden by --quiet.
   */
  transient(line: string): void {
    if (this.quiet) return;
    if (this.statusLine) this.statusLine(line);
    else this.info(sanitizeLine(line));
  }

  /** A spinner takes the transient lines while it runs; the returned function gives them back. */
  takeTransient(show: (line: string) => void): () => void {
    this.statusLine = show;
    return () => {
      if (this.statusLine === show) this.statusLine = undefined;
    };
  }

  /** Something wrong or doubtful, on stderr; --quiet does not hide it (warnings, errors). */
  warn(line: string): void {
    this.stderr.write(line + '\n');
  }

  /**
   * An outcome the user must not miss although nothing is wrong ("kept …", "interrupted: job X
   * keeps running on the service", "resume with: …"), on stderr; --quiet does not hide it.
   */
  notice(line: string): void {
    this.stderr.write(line + '\n');
  }

  /** A --verbose diagnostic on stderr. */
  debug(line: string): void {
    // Debug lines quote server text (retry reasons): sanitized like everything else.
    if (this.verbose) this.stderr.write(this.errStyle.dim(sanitizeLine(line)) + '\n');
  }
}
