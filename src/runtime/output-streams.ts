// What wes does when its own output cannot be written, for every command and the `--version` answer
// (cli.ts, version-answer.ts). A reader that goes away (`wes ... | head`) is not an error: further
// output is dropped, and a command still working stops as on Ctrl-C, quietly, and ends with 141 (as
// a command stopped by SIGPIPE); a finished command keeps its code. Any other failure of stdout (a
// full disk, `> /dev/full`, an I/O error) loses data the user asked for: it is said once on stderr,
// the command stops the same way, and the process ends with exit 1 whatever the command answered.
// stderr carries only diagnostics: when it cannot be written they are dropped and the code stays.
/** Watches process.stdout and process.stderr; `stop` is called once when stdout can no longer be written. */
export function watchOutputStreams(stop: () => void): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    discardWrites(process.stdout);
    if (err.code !== 'EPIPE') {
      process.stderr.write(`error: cannot write the output: ${err.message}\n`);
      // 1, "other error" (errors.ts ExitCode.ERROR, not imported: `--version` loads nothing more). Set
      // as the process ends, so no later code (the command's own) can set it back.
      process.once('exit', () => (process.exitCode = 1));
    }
    stop();
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
