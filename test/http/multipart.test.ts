// The hand-built multipart body: exactly Content-Length bytes, parsed back by busboy (the parser
// the dev-server uses) into the same fields and file bytes, in order, with awkward names quoted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import busboy from 'busboy';
import { afterAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../../src/http/multipart.js';

const dir = mkdtempSync(join(tmpdir(), 'wes-multipart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The body's pieces, each copied as it comes: a file's pieces share their memory with later ones. */
async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

function parse(contentType: string, body: Buffer): Promise<Array<{ name: string; value?: string; filename?: string; mimeType?: string; bytes?: Buffer }>> {
  return new Promise((resolve, reject) => {
    const parts: Array<{ name: string; value?: string; filename?: string; mimeType?: string; bytes?: Buffer }> = [];
    const bb = busboy({ headers: { 'content-type': contentType }, preservePath: true });
    bb.on('field', (name, value) => parts.push({ name, value }));
    bb.on('file', (name, file, info) => {
      const entry: (typeof parts)[number] = { name, filename: info.filename, mimeType: info.mimeType };
      parts.push(entry);
      const chunks: Buffer[] = [];
      file.on('data', (c: Buffer) => chunks.push(c));
      file.on('end', () => (entry.bytes = Buffer.concat(chunks)));
    });
    bb.on('close', () => resolve(parts));
    bb.on('error', reject);
    bb.end(body);
  });
}

describe('multipartBody', () => {
  it('streams fields and a multi-MiB file as exactly Content-Length bytes that parse back unchanged', async () => {
    const file = join(dir, 'big.bin');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 11);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    writeFileSync(file, bytes);
    const form = await multipartBody([
      { name: 'content_type', value: 'image/png' },
      { name: 'file_path', value: 'inputs/a "quoted"\nname.png' },
      { name: 'file', path: file, filename: 'inputs/a "quoted"\nname.png', contentType: 'image/png' },
      { name: 'after', value: 'ü' },
    ]);
    const body = await readAll(form.body());
    expect(body.length).toBe(Number(form.headers['content-length']));
    const parts = await parse(form.headers['content-type']!, body);
    expect(parts.map((p) => p.name)).toEqual(['content_type', 'file_path', 'file', 'after']);
    expect(parts[0]!.value).toBe('image/png');
    expect(parts[1]!.value).toBe('inputs/a "quoted"\nname.png');
    expect(parts[2]!.filename).toBe('inputs/a %22quoted%22%0Aname.png');
    expect(parts[2]!.mimeType).toBe('image/png');
    expect(parts[2]!.bytes!.equals(bytes)).toBe(true);
    expect(parts[3]!.value).toBe('ü');
    // A second stream (a retry) reads the file again and gives the same bytes.
    expect((await readAll(form.body())).equals(body)).toBe(true);
  });
});
