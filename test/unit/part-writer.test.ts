// PartWriter against a real file: chunks of any size (smaller and larger than its 1 MiB batches),
// taken only while they are valid, end up in the file in order; the writer asks the caller to
// wait when writes fall behind; a write that fails is reported.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { PartWriter } from '../../src/files/part-writer.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-part-writer-'));
  dirs.push(dir);
  return join(dir, 'out.part');
}

describe('PartWriter', () => {
  it('appends chunks of every size in order, copying each while it is valid, and holds the caller back when writes queue up', async () => {
    const path = tempFile();
    const handle = await open(path, 'a');
    const writer = new PartWriter(handle);
    const source = randomBytes(9 << 20);
    const scratch = Buffer.alloc(3 << 20); // one memory for every chunk, as the bulk sockets do
    let waits = 0;
    for (let at = 0, n = 1; at < source.length; n++) {
      const size = Math.min(source.length - at, (n * 104_729) % (3 << 20) || 1);
      source.copy(scratch, 0, at, at + size);
      const held = writer.add(scratch.subarray(0, size));
      scratch.fill(0xee, 0, size); // the chunk is no longer valid once add returns
      if (held) {
        waits++;
        await held;
      }
      at += size;
    }
    await writer.flush();
    await handle.close();
    expect(readFileSync(path).equals(source)).toBe(true);
    expect(waits).toBeGreaterThan(0);
  });

  it('reports a write that fails', async () => {
    const path = tempFile();
    writeFileSync(path, '');
    const handle = await open(path, 'r'); // not open for writing: every write fails with EBADF
    const writer = new PartWriter(handle);
    writer.add(Buffer.alloc(100));
    await expect(writer.flush()).rejects.toMatchObject({ code: 'EBADF' });
    await handle.close();
  });
});
