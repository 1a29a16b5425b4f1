// Streams for running wes in the test's own process: stdout and stderr are buffers that can say
// they are a terminal of a given width (with the cursor moves of a real one, so a spinner draws
// as it would), and stdin is given bytes or is empty.
import { clearLine, cursorTo, moveCursor, type Direction } from 'node:readline';
import { PassThrough, Readable, Writable } from 'node:stream';

/** A writable that keeps every byte, and looks like a TTY of `columns` when asked to. */
export class CapturedStream extends Writable {
  private readonly chunks: Buffer[] = [];
  readonly isTTY: boolean;
  readonly columns: number | undefined;
  readonly rows: number | undefined;

  constructor(tty: boolean, columns: number | undefined, rows?: number) {
    super();
    this.isTTY = tty;
    this.columns = tty ? (columns ?? 80) : undefined;
    this.rows = tty ? (rows ?? 50) : undefined;
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
    done();
  }

  // What a tty.WriteStream offers and ora calls to redraw its line in place.
  cursorTo(x: number, y?: number, callback?: () => void): boolean {
    return cursorTo(this, x, y, callback);
  }
  moveCursor(dx: number, dy: number, callback?: () => void): boolean {
    return moveCursor(this, dx, dy, callback);
  }
  clearLine(dir: Direction, callback?: () => void): boolean {
    return clearLine(this, dir, callback);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.bytes().toString('utf8');
  }
}

/** A terminal's keyboard: raw mode can be switched (a terminal query does), and nothing is typed. */
export class TerminalInput extends PassThrough {
  readonly isTTY = true;
  isRaw = false;
  setRawMode(raw: boolean): this {
    this.isRaw = raw;
    return this;
  }
}

export interface TestIOOptions {
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  /** Width of the terminal (default 80 when a stream is a TTY). */
  columns?: number;
  /** Height of the terminal (default 50 when a stream is a TTY; 0 is a pty with no window size). */
  rows?: number;
  /** Bytes on standard input; none means an empty, ended stdin (not a terminal). */
  stdin?: string | Buffer;
  /** stdin is a terminal: without `stdin` bytes, a TerminalInput where nothing is typed. */
  stdinTTY?: boolean;
}

export interface TestIO {
  stdin: Readable;
  stdout: CapturedStream;
  stderr: CapturedStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns?: number;
}

export function testIO(options: TestIOOptions = {}): TestIO {
  const stdoutIsTTY = options.stdoutTTY ?? false;
  const stderrIsTTY = options.stderrTTY ?? false;
  const input = options.stdin === undefined ? [] : [Buffer.from(options.stdin)];
  return {
    stdin: options.stdinTTY && options.stdin === undefined ? new TerminalInput() : Readable.from(input, { objectMode: false }),
    stdout: new CapturedStream(stdoutIsTTY, options.columns, options.rows),
    stderr: new CapturedStream(stderrIsTTY, options.columns, options.rows),
    stdinIsTTY: options.stdinTTY ?? false,
    stdoutIsTTY,
    stderrIsTTY,
    columns: stdoutIsTTY || stderrIsTTY ? (options.columns ?? 80) : undefined,
  };
}
