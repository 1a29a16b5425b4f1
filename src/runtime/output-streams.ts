// What wes does when its own output cannot be written, for every command and the `--version` answer
// (cli.ts, version-answer.ts). A reader that goes away (`wes ... | head`) is not an error: further
// output is dropped, and a command still working stops as on Ctrl-C, quietly, and ends with 141 (as
// a command stopped by SIGPIPE); a finished command keeps its code. Any other failure of stdout (a
// full disk, `> /dev/full`, an I/O error) loses data the user asked for: a command still working
// stops and says so itself, with exit 1 (program.ts; one already stopping by Ctrl-C, SIGTERM or
// --timeout keeps that stop's word and code); when none did (it had finished, or `--version`), it
// is said here as the process ends, with exit 1. stderr carries only
// diagnostics: when it cannot be written they are dropped and the code stays.

/** Set once the command running has answered for stdout's failure (program.ts). */
let failureHandled = false;

/**
 * The command running has answered for stdout's failure: it said it, with exit 1, or it was already
 * stopping (Ctrl-C, SIGTERM, --timeout), which it says with that stop's code. Nothing to add at exit.
 */
export function outputFailureHandled(): void {
  failureHandled = true;
}

/**
 * Watches process.stdout and process.stderr. `stopCommand` is called once, when stdout can no longer
 * be written (EPIPE or another failure), to stop a command still working. `jsonErrors`: the command
 * line asked for errors as JSON (`--json`, `--jq`).
 */
export function watchOutputStreams(jsonErrors: boolean, stopCommand: (failure: NodeJS.ErrnoException) => void): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    discardWrites(process.stdout);
    stopCommand(err);
    if (err.code === 'EPIPE') return;
    // At the end, when it is known whether a command answered for it (it may have ended before the failure).
    process.once('exit', () => {
      if (failureHandled) return;
      // The words and the error object of the stop a running command says (errors.ts, render/error.ts),
      // not loaded for this (`--version` loads nothing more).
      const message = `stopped: the output cannot be written (${err.message})`;
      process.stderr.write(jsonErrors ? `${JSON.stringify({ error: { code: 'output_failed', message, status: null, request_id: null, details: null } })}\n` : `${message}\n`);
      // 1, "other error" (errors.ts ExitCode.ERROR, not imported for the same reason), whatever the command answered.
      process.exitCode = 1;
    });
  });
  process.stderr.on('error', () => discardWrites(process.stderr));
}

function discardWrites(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof stream.write;
}
