// Reading a batch file: streamed line by line, every line checked before any is run, numbers kept
// exactly as written (a 64-bit seed in a line or in its `set`), a literal JSON cannot hold refused
// with its line number, and standard input spooled so it can be checked and then run.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBatch, type BatchLine } from '../../src/features/batch/input.js';
import { applyAssignments } from '../../src/features/jobs/inputs.js';
import { stringifyJsonExact } from '../../src/util/exact-json.js';
import { useTempDir, writeTemp } from './jobs-env.js';

const noStdin = Readable.from([]);

async function linesOf(input: Awaited<ReturnType<typeof readBatch>>): Promise<BatchLine[]> {
  const lines: BatchLine[] = [];
  for await (const line of input.lines()) lines.push(line);
  await input.dispose();
  return lines;
}

describe('batch input', () => {
  const dir = useTempDir();

  it('keeps 64-bit seeds exact, in a line and in its set, and numbers every line by its place in the file', async () => {
    const text = [
      '{"1": {"class_type": "Sample", "inputs": {"seed": 18446744073709551615, "denoise": 0.1}}}',
      '',
      '{"workflow": {"1": {"class_type": "Sample", "inputs": {"seed": 1}}}, "set": {"1.seed": 9007199254740993}}',
    ].join('\r\n');
    const input = await readBatch(writeTemp(dir(), text, 'jsonl'), noStdin, ['1.steps=12345678901234567891']);
    expect(input.count).toBe(2);
    const lines = await linesOf(input);
    expect(lines.map((l) => l.index)).toEqual([1, 3]);
    const sent = await Promise.all(lines.map(async (l) => stringifyJsonExact(await applyAssignments(l.workflow, l.assignments, async () => 'unused'))));
    expect(sent[0]).toContain('"seed":18446744073709551615');
    expect(sent[0]).toContain('"steps":12345678901234567891');
    expect(sent[1]).toContain('"seed":9007199254740993');
  });

  it('refuses a literal JSON cannot hold, naming its line, before anything runs', async () => {
    const file = writeTemp(dir(), '{"1": {"class_type": "Sample", "inputs": {"seed": 1}}}\n{"1": {"class_type": "Sample", "inputs": {"seed": 1e400}}}\n', 'jsonl');
    await expect(readBatch(file, noStdin, [])).rejects.toThrow(/line 2: the number 1e400 is too large for JSON/);
  });

  it('reads standard input once, into a private spool it removes', async () => {
    const input = await readBatch('-', Readable.from(['{"1": {"class_type": "Sample", "inputs": {}}}\n', '{"1": {"class_type": "Sample", "inputs": {}}}\n']), []);
    expect(input.source).toBe('-');
    expect((await linesOf(input)).map((l) => l.index)).toEqual([1, 2]);
  });
});
