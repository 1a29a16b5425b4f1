// `wes assets upload|get|download|delete` against a self-hosted dev-server (no credential), which
// answers as the reference job API server does: hash first (HEAD by hash), bytes only when the
// service lacks them, the published asset record, content served directly, verified downloads.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blake3File } from '../../src/files/blake3.js';
import { addFaults, useDevServer } from '../helpers/dev-server.js';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { solidImage } from '../../src/dev-server/engine/image.js';
import { seen, seenMatching, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('wes assets', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', faults: true });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();
  const uploads = () => seen(ctx.server, 'POST /api/v2/assets');
  const fromHash = () => seen(ctx.server, 'POST /api/v2/assets/from-hash');
  const heads = () => seenMatching(ctx.server, /^HEAD \/api\/v2\/assets\/by-hash\//);

  it('uploads a new file: asks by hash first, then sends the bytes; prints the id (human) or the record (--json)', async () => {
    const file = writeTemp(dir(), `first file ${Date.now()}\n`, 'txt');
    const hash = await blake3File(file);
    const [u0, f0, h0] = [uploads(), fromHash(), heads()];
    const res = await wes(['assets', 'upload', file]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(res.stderr).toContain(`uploaded ${file} as asset ${res.stdout.trim()} (${hash})`);
    expect([uploads() - u0, fromHash() - f0, heads() - h0]).toEqual([1, 0, 1]);

    const other = writeTemp(dir(), Buffer.from([1, 2, 3, 4, 5]), 'bin');
    const json = await wes(['assets', 'upload', other, '--json', '--name', 'inputs/five.bin', '--content-type', 'application/x-five']);
    expect(json.code, json.stderr).toBe(0);
    const record = JSON.parse(json.stdout);
    expect(record).toMatchObject({ size_bytes: 5, hash: await blake3File(other), content_type: 'application/x-five', file_path: 'inputs/five.bin', created_new: true });
    for (const absent of ['name', 'type', 'node_id']) expect(record).not.toHaveProperty(absent);
  });

  it('--tag and --expires-in go with the upload; --expires-in out of 60..604800 is refused before anything is sent', async () => {
    const file = writeTemp(dir(), `tagged ${Date.now()}\n`, 'txt');
    const res = await wes(['assets', 'upload', file, '--tag', 'input', '--tag', 'mask', '--expires-in', '3600', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const record = JSON.parse(res.stdout);
    const expires = Date.parse(record.expires_at) - Date.parse(record.created_at);
    expect(expires).toBeGreaterThan(3590_000);
    expect(expires).toBeLessThan(3610_000);
    const u0 = uploads();
    const bad = await wes(['assets', 'upload', file, '--expires-in', '30']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--expires-in');
    expect(uploads()).toBe(u0);
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
    expect(JSON.parse(json.stdout)).toMatchObject({ id, size_bytes: 10, url: `${ctx.server.url}/api/v2/assets/${id}/content` });
    const missing = await wes(['assets', 'get', '00000000-0000-0000-0000-000000000000']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/hint: check the asset id/);
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
    await addFaults(ctx.server, { match: `GET /api/v2/assets/${id}/content`, action: 'corrupt' });
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

  it('delete: 204 says deleted; the same id again is "no such asset" (exit 5); every id is tried; --json lists each', async () => {
    const a = (await wes(['assets', 'upload', writeTemp(dir(), `del a ${Date.now()}`, 'txt')])).stdout.trim();
    const b = (await wes(['assets', 'upload', writeTemp(dir(), `del b ${Date.now()}`, 'txt')])).stdout.trim();
    const first = await wes(['assets', 'delete', a]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`deleted asset ${a}`);
    const both = await wes(['assets', 'delete', a, b, '--json']);
    expect(both.code).toBe(5);
    expect(JSON.parse(both.stdout)).toEqual([
      { id: a, deleted: false, error: { code: 'not_found', message: expect.stringContaining('no such asset') } },
      { id: b, deleted: true },
    ]);
    expect((await wes(['assets', 'get', b])).code).toBe(5);
  });

  it('delete on a server that deletes no assets says so once (exit 6), not "HTTP 405: 405: Method Not Allowed"', async () => {
    // What an earlier release of the reference server (comfy-api-proxy 50d7280, in front of a real
    // ComfyUI 0.3.64) answered to DELETE /api/v2/assets/{id}: aiohttp's plain 405, GET and HEAD allowed.
    const a = (await wes(['assets', 'upload', writeTemp(dir(), `no del a ${Date.now()}`, 'txt')])).stdout.trim();
    const b = (await wes(['assets', 'upload', writeTemp(dir(), `no del b ${Date.now()}`, 'txt')])).stdout.trim();
    await addFaults(ctx.server, {
      match: 'DELETE /api/v2/assets/*',
      action: 'status',
      status: 405,
      body: '405: Method Not Allowed',
      headers: { 'content-type': 'text/plain; charset=utf-8', allow: 'GET,HEAD' },
    });
    const res = await wes(['assets', 'delete', a, b]);
    expect(res.code).toBe(6);
    expect(res.stderr).toContain('this server does not delete assets (DELETE /api/v2/assets/ID answered 405): no asset was deleted');
    expect(res.stderr).toContain('its release has no asset deletion');
    expect(res.stderr).not.toContain('Method Not Allowed');
    expect((await wes(['assets', 'get', b])).code).toBe(0);
  });

  it('delete of an asset a queued or running job reads is refused as in use (exit 6), said plainly', async () => {
    const png = writeTemp(dir(), tinyPng(), 'png');
    const id = (await wes(['assets', 'upload', png])).stdout.trim();
    const flow = writeTemp(dir(), {
      '1': { class_type: 'LoadImage', inputs: { image: 'x' } },
      '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 40, seed: 1, denoise: 1, sampler_name: 'euler' } },
      '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'held' } },
    });
    const job = await wes(['jobs', 'submit', flow, '--set', `1.image=asset:${id}`]);
    expect(job.code, job.stderr).toBe(0);
    const res = await wes(['assets', 'delete', id]);
    expect(res.code).toBe(6);
    expect(res.stderr).toContain(`asset ${id} is in use`);
    await wes(['jobs', 'cancel', job.stdout.trim()]);
  });

  it('--set N.I=asset:ID puts the typed reference to an asset already there; an unknown id stops before the submit (exit 5)', async () => {
    // Bytes of its own: the self-hosted server keeps one record per blob, under its first name.
    const png = writeTemp(dir(), tinyPng(0xc0ffee), 'png');
    const record = JSON.parse((await wes(['assets', 'upload', png, '--name', 'kitten.png', '--json'])).stdout);
    const flow = writeTemp(dir(), {
      '1': { class_type: 'LoadImage', inputs: { image: 'placeholder' } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'by-id' } },
    });
    const res = await wes(['jobs', 'submit', flow, '--set', `1.image=asset:${record.id}`, '--wait']);
    expect(res.code, res.stderr).toBe(0);
    expect(ctx.server.state.engine.get(res.stdout.trim())!.workflow['1']!.inputs.image).toBe('kitten.png');
    const before = seen(ctx.server, 'POST /api/v2/jobs');
    const missing = await wes(['jobs', 'submit', flow, '--set', '1.image=asset:no-such-asset']);
    expect(missing.code).toBe(5);
    expect(seen(ctx.server, 'POST /api/v2/jobs')).toBe(before);
  });
});

/** A 1x1 PNG of this colour, which the engine's LoadImage reads. */
function tinyPng(color = 0x336699): Buffer {
  return encodePng(solidImage(1, 1, color));
}
