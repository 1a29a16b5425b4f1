// Assets as the published contract defines them: the record's fields, upload fields (tags,
// expires_in), from-hash, the existence check by hash, delete (204, 404, 409 asset_in_use), and
// the content route (302 to a signed URL on hosted deployments; bytes with Range on self-hosted).
import { describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { solidImage } from '../../src/dev-server/engine/image.js';
import { assetReference } from '../../src/protocol/jobs.js';
import { blake3, getJson, imageWorkflow, postJson, serverUrl, submitJob, uploadAsset, useDevServer, v2Auth, waitForJob, type Json } from '../helpers/dev-server.js';

/** The published Asset's required fields, and the optional ones this server sets. */
const UPLOAD_FIELDS = ['content_type', 'created_at', 'created_new', 'file_path', 'hash', 'id', 'size_bytes', 'url', 'url_expires_at'];

function del(server: DevServerHandle, id: string): Promise<Response> {
  return fetch(`${server.url}/api/v2/assets/${encodeURIComponent(id)}`, { method: 'DELETE', headers: v2Auth(server) });
}

describe('job API v2 assets, as published (cloud)', () => {
  const ctx = useDevServer();
  const upload = (bytes: Buffer, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) => uploadAsset(ctx.server, bytes, fields, headers);

  it('uploads: 201 for a new blob, 200 minting a new record over one it has; exactly the published fields', async () => {
    const bytes = Buffer.from(`asset-${Math.random()}`);
    const first = await upload(bytes, { file_path: 'inputs/a.txt', content_type: 'text/plain' });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(UPLOAD_FIELDS);
    expect(first.body).toMatchObject({ file_path: 'inputs/a.txt', content_type: 'text/plain', size_bytes: bytes.length, created_new: true });
    expect(first.body.hash).toBe(await blake3(bytes));
    expect(first.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await upload(bytes, { file_path: 'inputs/b.txt' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ hash: first.body.hash, created_new: false, file_path: 'inputs/b.txt' });
    expect(second.body.id).not.toBe(first.body.id);
    // The record reads back without created_new; its content redirects to a signed URL.
    const record = await getJson(ctx.server, `/api/v2/assets/${first.body.id}`);
    expect(Object.keys(record.body).sort()).toEqual(UPLOAD_FIELDS.filter((f) => f !== 'created_new'));
    const redirect = await fetch(`${ctx.server.url}/api/v2/assets/${first.body.id}/content`, { headers: v2Auth(ctx.server), redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(ctx.server.signedOrigin)).toBe(true);
    expect(Buffer.from(await (await fetch(location)).arrayBuffer())).toEqual(bytes);
  });

  it('takes tags[] and expires_in (60..604800 s): the record carries expires_at and is gone after it', async () => {
    const before = Date.now();
    const made = await upload(Buffer.from(`tagged-${Math.random()}`), { file_path: 't.txt', tags: ['input', 'mine'], expires_in: '3600' });
    expect(made.status).toBe(201);
    const expiresAt = Date.parse(made.body.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(ctx.server.state.blobs.getAsset(made.body.id)!.tags).toEqual(['input', 'mine']);
    for (const bad of ['59', '604801', 'soon', '1.5']) {
      const res = await upload(Buffer.from('x'), { file_path: 'x.txt', expires_in: bad });
      expect([bad, res.status, res.body.error.code]).toEqual([bad, 422, 'invalid_request']);
      expect(res.body.error.message).toMatch(/expires_in/);
    }
    // Past its expires_at the record is gone.
    ctx.server.state.blobs.getAsset(made.body.id)!.expiresAt = Date.now() - 1;
    expect((await getJson(ctx.server, `/api/v2/assets/${made.body.id}`)).status).toBe(404);
  });

  it('checks expected_hash: 409 hash_mismatch, and keeps no blob', async () => {
    const bytes = Buffer.from(`mismatch-${Math.random()}`);
    const wrong = `blake3:${'0'.repeat(64)}`;
    const res = await upload(bytes, { file_path: 'x.bin', expected_hash: wrong });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('hash_mismatch');
    const head = await fetch(`${ctx.server.url}/api/v2/assets/by-hash/${await blake3(bytes)}`, { method: 'HEAD', headers: v2Auth(ctx.server) });
    expect(head.status).toBe(404);
    const right = await upload(bytes, { file_path: 'x.bin', expected_hash: await blake3(bytes) });
    expect(right.status).toBe(201);
  });

  it('answers 422 invalid_request for malformed uploads', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /file_path/],
      [{ file_path: '/etc/passwd' }, /relative/],
      [{ file_path: 'a/../b' }, /\.\./],
      [{ file_path: 'ok.bin', expected_hash: 'sha256:abc' }, /expected_hash/],
      [{ file_path: 'ok.bin', content_type: 'not a type' }, /content_type/],
    ];
    for (const [fields, message] of cases) {
      const res = await upload(Buffer.from('x'), fields);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(message);
    }
    const notMultipart = await postJson(ctx.server, '/api/v2/assets', { file_path: 'a' });
    expect(notMultipart.status).toBe(422);
    expect(notMultipart.body.error.code).toBe('invalid_request');
    const noFile = new FormData();
    noFile.append('file_path', 'a.txt');
    const res = await fetch(`${ctx.server.url}/api/v2/assets`, { method: 'POST', headers: v2Auth(ctx.server), body: noFile });
    expect(res.status).toBe(422);
  });

  it('blocks flagged content with 451 content_blocked', async () => {
    const bytes = Buffer.concat([Buffer.alloc(70_000, 1), Buffer.from('WES-BLOCKED-CONTENT'), Buffer.alloc(10, 2)]);
    const res = await upload(bytes, { file_path: 'bad.bin' });
    expect(res.status).toBe(451);
    expect(res.body.error.code).toBe('content_blocked');
  });

  it('from-hash {hash, file_path?, tags?, expires_in?}: 404 blob_not_found, 201 minted, 200 the same record as it is', async () => {
    const bytes = Buffer.from(`from-hash-${Math.random()}`);
    const hash = await blake3(bytes);
    const head = (h: string) => fetch(`${ctx.server.url}/api/v2/assets/by-hash/${h}`, { method: 'HEAD', headers: v2Auth(ctx.server) });
    expect((await head(hash)).status).toBe(404);
    const missing = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash, file_path: 'f.txt' });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'blob_not_found']);
    const original = (await upload(bytes, { file_path: 'orig.txt' })).body;
    const found = await head(hash);
    expect([found.status, await found.text(), found.headers.get('x-blob-size')]).toEqual([200, '', null]);
    const made = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash, file_path: 'copy/f.txt', tags: ['input'] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ hash, file_path: 'copy/f.txt', content_type: 'text/plain', size_bytes: bytes.length, created_new: false });
    const same = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash, file_path: 'copy/f.txt' });
    expect([same.status, same.body.id, same.body.created_new]).toEqual([200, made.body.id, false]);
    // Without a path: the newest record over those bytes, as it is (the reference server's answer).
    const bare = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash });
    expect([bare.status, bare.body.id]).toEqual([200, made.body.id]);
    expect(original.id).not.toBe(made.body.id);
    for (const body of [{ hash: 'md5:x' }, { hash, tags: 'input' }, { hash, expires_in: 10 }, { hash, file_path: '../up' }]) {
      const bad = await postJson(ctx.server, '/api/v2/assets/from-hash', body);
      expect([bad.status, bad.body.error.code]).toEqual([422, 'invalid_request']);
    }
  });

  it('deletes: 204, then 404 asset_not_found ("Unknown asset id."), and the bytes of other records stay', async () => {
    const bytes = Buffer.from(`delete-${Math.random()}`);
    const keep = (await upload(bytes, { file_path: 'keep.txt' })).body;
    const gone = (await upload(bytes, { file_path: 'gone.txt' })).body;
    const first = await del(ctx.server, gone.id);
    expect([first.status, await first.text()]).toEqual([204, '']);
    for (const again of [await del(ctx.server, gone.id), await fetch(`${ctx.server.url}/api/v2/assets/${gone.id}`, { headers: v2Auth(ctx.server) })]) {
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual({ error: { code: 'asset_not_found', message: 'Unknown asset id.', details: null } });
    }
    const kept = await fetch((await getJson(ctx.server, `/api/v2/assets/${keep.id}`)).body.url);
    expect(Buffer.from(await kept.arrayBuffer())).toEqual(bytes);
  });

  it('refuses to delete an asset a queued or running job reads (409 asset_in_use), and a job output', async () => {
    const png = encodePng(solidImage(4, 4, 0x112233));
    const asset = (await upload(png, { file_path: `held-${Math.random()}.png`, content_type: 'image/png' })).body;
    const blocker = (await submitJob(ctx.server, imageWorkflow({ steps: 150 }))).body;
    const reader = await submitJob(ctx.server, {
      '1': { class_type: 'LoadImage', inputs: { image: assetReference(asset as { id: string }) } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'held' } },
    });
    expect(reader.status).toBe(201);
    const held = await del(ctx.server, asset.id);
    expect(held.status).toBe(409);
    expect(((await held.json()) as Json).error.code).toBe('asset_in_use');
    await postJson(ctx.server, blocker.urls.cancel, {});
    const done = await waitForJob(ctx.server, reader.body.urls.self, ['succeeded']);
    const output = await del(ctx.server, done.outputs[0].id);
    expect([output.status, ((await output.json()) as Json).error.code]).toEqual([409, 'asset_in_use']);
    expect((await del(ctx.server, asset.id)).status).toBe(204);
  });

  it('reads job outputs as assets: job_id, file_path the name, expires_at the job\'s, no name/type/node_id', async () => {
    const done = await waitForJob(
      ctx.server,
      (await submitJob(ctx.server, { '1': { class_type: 'SaveText', inputs: { text: 'out' } } })).body.urls.self,
      ['succeeded'],
    );
    const record = await getJson(ctx.server, `/api/v2/assets/${done.outputs[0].id}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ id: done.outputs[0].id, job_id: done.id, file_path: 'text_00001_.txt', expires_at: done.expires_at });
    for (const field of ['name', 'type', 'node_id']) expect(record.body).not.toHaveProperty(field);
  });
});

describe('job API v2 asset content on the self-hosted deployment: the bytes themselves', () => {
  const ctx = useDevServer({ deployment: 'self-hosted' });

  it('serves 200 with the real Content-Length, 206 for a Range, and 502 upstream_error (no Content-Range) for a Range outside the bytes, as recorded', async () => {
    const bytes = Buffer.from(`self-hosted-content-${Math.random()}`.repeat(10));
    const asset = (await uploadAsset(ctx.server, bytes, { file_path: 'c.bin', content_type: 'application/octet-stream' })).body;
    expect(asset.url).toBe(`${ctx.server.url}/api/v2/assets/${asset.id}/content`);
    const whole = await fetch(asset.url);
    expect([whole.status, whole.headers.get('content-length'), whole.headers.get('accept-ranges')]).toEqual([200, String(bytes.length), 'bytes']);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
    const part = await fetch(asset.url, { headers: { range: 'bytes=0-9' } });
    expect([part.status, part.headers.get('content-range'), part.headers.get('content-length')]).toEqual([206, `bytes 0-9/${bytes.length}`, '10']);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(0, 10));
    const outside = await fetch(asset.url, { headers: { range: `bytes=${bytes.length}-` } });
    // The engine behind the reference server answers 416, which the server passes on as a 502.
    expect([outside.status, outside.headers.get('content-range')]).toEqual([502, null]);
    expect(((await outside.json()) as Json).error.code).toBe('upstream_error');
  });

  it('serves an output\'s bytes at its url, whatever size it declares', async () => {
    const done = await waitForJob(ctx.server, (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body.urls.self, ['succeeded']);
    const output = done.outputs[0];
    expect([output.size_bytes, output.hash]).toEqual([0, null]);
    const res = await fetch(serverUrl(ctx.server, output.url));
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(body.length).toBe(ctx.server.state.engine.findAsset(output.id)!.size_bytes);
    expect(body.length).toBeGreaterThan(0);
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(body.subarray(1, 4).toString()).toBe('PNG');
  });
});
