// `wes assets upload|get|download` through the built binary against a self-hosted dev-server (no
// credential): hash first, bytes only when the service lacks them, verified downloads.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blake3File } from '../../src/files/blake3.js';
import { addFaults, useDevServer } from '../helpers/dev-server.js';
import { seen, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('wes assets', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', faults: true });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();
  const uploads = () => seen(ctx.server, 'POST /api/v2/assets');
  const fromHash = () => seen(ctx.server, 'POST /api/v2/assets/from-hash');

  it('uploads a new file: from-hash first, then the bytes; prints the id (human) or the record (--json)', async () => {
    const file = writeTemp(dir(), `first file ${Date.now()}\n`, 'txt');
    const hash = await blake3File(file);
    const [u0, f0] = [uploads(), fromHash()];
    const res = await wes(['assets', 'upload', file]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(res.stderr).toContain(`uploaded ${file} as asset ${res.stdout.trim()} (${hash})`);
    expect([uploads() - u0, fromHash() - f0]).toEqual([1, 1]);

    const other = writeTemp(dir(), Buffer.from([1, 2, 3, 4, 5]), 'bin');
    const json = await wes(['assets', 'upload', other, '--json', '--name', 'inputs/five.bin', '--content-type', 'application/x-five']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ size_bytes: 5, hash: await blake3File(other), content_type: 'application/x-five', file_path: 'inputs/five.bin' });
  });

  it('the same bytes again send no file: one from-hash call, no upload', async () => {
    const file = writeTemp(dir(), `dedupe me ${Date.now()}\n`.repeat(1000), 'txt');
    const first = await wes(['assets', 'upload', file]);
    expect(first.code).toBe(0);
    const copy = join(dir(), 'copy-of-it.txt');
    writeFileSync(copy, readFileSync(file));
    const [u0, f0] = [uploads(), fromHash()];
    const second = await wes(['assets', 'upload', copy, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(uploads() - u0).toBe(0);
    expect(fromHash() - f0).toBe(1);
    expect(second.stderr).toContain('nothing uploaded');
    expect(JSON.parse(second.stdout).hash).toBe(await blake3File(file));
  });

  it('gets a record for humans and as JSON; an unknown id is exit 5 with a hint', async () => {
    const file = writeTemp(dir(), 'record me\n', 'txt');
    const id = (await wes(['assets', 'upload', file])).stdout.trim();
    const human = await wes(['assets', 'get', id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
    expect(human.stdout).toMatch(/^size\s+10 B \(10 bytes\)$/m);
    expect(human.stdout).toMatch(/^hash\s+blake3:[0-9a-f]{64}$/m);
    const json = await wes(['assets', 'get', id, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, size_bytes: 10, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/signed\//) });
    const missing = await wes(['assets', 'get', '00000000-0000-0000-0000-000000000000']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/hint: check the id/);
  });

  it('downloads through the content route, blake3-checked: to a file, into a folder, to the current folder', async () => {
    const file = writeTemp(dir(), Buffer.alloc(200_000, 7), 'bin');
    const record = JSON.parse((await wes(['assets', 'upload', file, '--name', 'sevens.bin', '--json'])).stdout);
    const asFile = join(dir(), 'dl', 'named.bin');
    const res = await wes(['assets', 'download', record.id, asFile, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ name: 'named.bin', path: asFile, bytes: 200_000, hash: record.hash, verified: true, asset_id: record.id });
    expect(readFileSync(asFile).equals(readFileSync(file))).toBe(true);
    expect(seen(ctx.server, `GET /api/v2/assets/${record.id}/content`)).toBe(1);

    const intoFolder = await wes(['assets', 'download', record.id, `${join(dir(), 'folder')}/`]);
    expect(intoFolder.stdout).toBe(`${join(dir(), 'folder', 'sevens.bin')}\n`);
    const here = await wes(['assets', 'download', record.id], { cwd: dir() });
    expect(here.stdout).toBe('sevens.bin\n');
  });

  it('falls back to the record\'s own URL where the content route is missing', async () => {
    const file = writeTemp(dir(), Buffer.alloc(3000, 5), 'bin');
    const record = JSON.parse((await wes(['assets', 'upload', file, '--json'])).stdout);
    await addFaults(ctx.server, { match: `GET /api/v2/assets/${record.id}/content`, action: 'status', status: 404, body: { error: { code: 'not_found', message: 'Not Found' } } });
    const target = join(dir(), 'fallback.bin');
    const res = await wes(['assets', 'download', record.id, target, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ bytes: 3000, verified: true });
    expect(readFileSync(target).equals(readFileSync(file))).toBe(true);
  });

  it('a corrupted asset download is exit 1 and leaves no file', async () => {
    const file = writeTemp(dir(), Buffer.alloc(50_000, 9), 'bin');
    const id = (await wes(['assets', 'upload', file])).stdout.trim();
    await addFaults(ctx.server, { match: 'GET /signed/**', action: 'corrupt' });
    const target = join(dir(), 'broken.bin');
    const res = await wes(['assets', 'download', id, target]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('blake3 mismatch');
    expect(() => readFileSync(target)).toThrow();
    expect(() => readFileSync(`${target}.part`)).toThrow();
  });

  it('explains a 409 hash_mismatch from the upload (exit 6)', async () => {
    const file = writeTemp(dir(), `changing ${Date.now()}\n`, 'txt');
    await addFaults(ctx.server, {
      match: 'POST /api/v2/assets',
      action: 'status',
      status: 409,
      body: { error: { code: 'hash_mismatch', message: 'the bytes do not hash to expected_hash' } },
    });
    const res = await wes(['assets', 'upload', file]);
    expect(res.code).toBe(6);
    expect(res.stderr).toContain('code hash_mismatch');
    expect(res.stderr).toMatch(/hint: the file changed while uploading/);
  });

  it('refuses a missing file locally (exit 2)', async () => {
    const res = await wes(['assets', 'upload', join(dir(), 'nope.png')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no such file');
  });
});
