// saveToFile with a hash the server only reports after the bytes are in (lateExpectedHash).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createBlake3, formatBlake3 } from '../../src/files/blake3.js';
import { IntegrityError, saveToFile } from '../../src/files/save.js';

const dir = mkdtempSync(join(tmpdir(), 'wes-late-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BYTES = Buffer.from('the bytes of one output\n'.repeat(100));

async function hashOf(bytes: Buffer): Promise<string> {
  const h = await createBlake3();
  h.update(bytes);
  return formatBlake3(h);
}

const open = async () => ({ status: 200, body: Readable.from([BYTES.subarray(0, 1000), BYTES.subarray(1000)]) });

describe('a hash reported late', () => {
  it('checks the bytes against it and marks the file verified', async () => {
    let asked = 0;
    const right = await hashOf(BYTES);
    const saved = await saveToFile({ dir, name: 'ok.txt', open, expectedHash: null, lateExpectedHash: async () => (asked++, right) });
    expect(asked).toBe(1);
    expect(saved).toMatchObject({ verified: true, hash: right, bytes: BYTES.length });
  });

  it('removes the file when it does not match', async () => {
    const wrong = await hashOf(Buffer.from('something else'));
    await expect(saveToFile({ dir, name: 'bad.txt', open, expectedHash: null, lateExpectedHash: async () => wrong })).rejects.toBeInstanceOf(IntegrityError);
    expect(readdirSync(dir).filter((f) => f.startsWith('bad'))).toEqual([]);
  });

  it('saves unverified when it is still unknown, and never asks when the hash was known', async () => {
    const unknown = await saveToFile({ dir, name: 'later.txt', open, expectedHash: null, lateExpectedHash: async () => null });
    expect(unknown.verified).toBe(false);
    let asked = false;
    const known = await saveToFile({ dir, name: 'known.txt', open, expectedHash: await hashOf(BYTES), lateExpectedHash: async () => ((asked = true), null) });
    expect(known.verified).toBe(true);
    expect(asked).toBe(false);
  });
});
