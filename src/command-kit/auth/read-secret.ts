// Reading credentials: whole lines from piped stdin for scripts, a hidden prompt on a terminal.
import { createInterface } from 'node:readline';
import type { IOStreams } from '../../render/io.js';
import { UsageError } from '../../errors.js';

/** Reads all of stdin and returns its non-empty lines, trimmed. */
export async function readStdinLines(io: IOStreams): Promise<string[]> {
  if (io.stdinIsTTY) throw new UsageError('expected the credential on standard input, but it is a terminal', 'pipe it in: echo "$KEY" | wes auth login --with-token');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
}

/** Asks a question on stderr; `hidden` echoes nothing while typing. */
export async function prompt(io: IOStreams, question: string, hidden = false): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  if (hidden) {
    const rlAny = rl as unknown as { _writeToOutput: (s: string) => void };
    const original = rlAny._writeToOutput.bind(rl);
    rlAny._writeToOutput = (s: string) => original(s.startsWith(question) ? s : '');
  }
  try {
    return await new Promise<string>((resolve) => rl.question(question, (answer) => resolve(answer.trim())));
  } finally {
    if (hidden) io.stderr.write('\n');
    rl.close();
  }
}
