// answerFile, the sink `models run -o FILE` writes its output through: the bytes go to a fresh
// hidden temp file next to the target and take the target's name only at the end; an existing
// name is replaced only when allowed; a dropped or refused answer leaves nothing behind.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerFile } from '../../src/files/answer-file.js';
import { FileExistsError } from '../../src/files/safe-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wes-answer-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const pieces = [Buffer.from('{"a":'), Buffer.alloc(200_000, 0x31), Buffer.from(',"b":"é"}')];

describe('answerFile', () => {
  it('writes the chunks into a hidden temp file and gives it the name at the end, making missing folders', async () => {
    const target = join(dir, 'deep', 'er', 'out.json');
    const open = await answerFile(target, false).open();
    for (const piece of pieces) open.take(piece);
    expect(readdirSync(join(dir, 'deep', 'er'))).toEqual([expect.stringMatching(/^\.out\.json\.[0-9a-f]{16}\.tmp$/)]);
    expect(await open.close()).toBe(Buffer.concat(pieces).length);
    expect(readFileSync(target).equals(Buffer.concat(pieces))).toBe(true);
    expect(readdirSync(join(dir, 'deep', 'er'))).toEqual(['out.json']);
  });

  it('refuses a name taken meanwhile unless replacing, leaving the file there and no temp file', async () => {
    const target = join(dir, 'out.json');
    const open = await answerFile(target, false).open();
    open.take(pieces[0]!);
    writeFileSync(target, 'theirs');
    await expect(open.close()).rejects.toThrow(FileExistsError);
    expect(readFileSync(target, 'utf8')).toBe('theirs');
    expect(readdirSync(dir)).toEqual(['out.json']);

    const replacing = await answerFile(target, true).open();
    replacing.take(pieces[2]!);
    await replacing.close();
    expect(readFileSync(target).equals(pieces[2]!)).toBe(true);
    expect(readdirSync(dir)).toEqual(['out.json']);
  });

  it('drop removes the temp file and leaves no target', async () => {
    const target = join(dir, 'out.json');
    const open = await answerFile(target, false).open();
    open.take(pieces[1]!);
    await open.drop();
    expect(readdirSync(dir)).toEqual([]);
  });
});
