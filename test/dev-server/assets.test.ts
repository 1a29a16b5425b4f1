import { createBLAKE3 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { solidImage } from '../../src/dev-server/engine/image.js';
import { getJson, postJson, submitJob, useDevServer, v2Auth, waitForJob, type Json } from '../helpers/dev-server.js';

async function blake3(bytes: Buffer): Promise<string> {
  const hasher = await createBLAKE3();
  hasher.init();
  hasher.update(bytes);
  return `blake3:${hasher.digest('hex')}`;
}

describe('job API v2: assets', () => {
  const ctx = useDevServer();

  async function upload(bytes: Buffer, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([bytes]), 'upload.bin');
    const res = await fetch(`${ctx.server.url}/api/v2/assets`, { method: 'POST', headers: { ...v2Auth(ctx.server), ...headers }, body: form });
    return { status: res.status, body: (await res.json()) as Json };
  }

  it('uploads: 201 for a new blob, 200 for one it already has; the record carries file_path and created_at', async () => {
    const bytes = Buffer.from(`asset-${Math.random()}`);
    const first = await upload(bytes, { file_path: 'inputs/a.txt', content_type: 'text/plain' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'a.txt', file_path: 'inputs/a.txt', content_type: 'text/plain', type: 'text', size_bytes: bytes.length, job_id: null, node_id: '' });
    expect(first.body.hash).toBe(await blake3(bytes));
    expect(first.body.created_at).toBeTypeOf('string');
    expect(first.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await upload(bytes, { file_path: 'inputs/b.txt' });
    expect(second.status).toBe(200);
    expect(second.body.hash).toBe(first.body.hash);
    expect(second.body.content_type).toBe('text/plain');
    // the record reads back, and its content redirects to a signed URL
    const record = await getJson(ctx.server, `/api/v2/assets/${first.body.id}`);
    expect(record.body).toMatchObject({ id: first.body.id, file_path: 'inputs/a.txt' });
    const redirect = await fetch(`${ctx.server.url}/api/v2/assets/${first.body.id}/content`, { headers: v2Auth(ctx.server), redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(ctx.server.signedOrigin)).toBe(true);
    expect(Buffer.from(await (await fetch(location)).arrayBuffer())).toEqual(bytes);
    expect((await getJson(ctx.server, '/api/v2/assets/00000000-0000-0000-0000-000000000000')).status).toBe(404);
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

  it('honours Idempotency-Key on uploads', async () => {
    const bytes = Buffer.from(`idem-${Math.random()}`);
    const first = await upload(bytes, { file_path: 'i.bin' }, { 'idempotency-key': 'up-1' });
    const again = await upload(bytes, { file_path: 'i.bin' }, { 'idempotency-key': 'up-1' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const other = await upload(Buffer.from('different'), { file_path: 'i.bin' }, { 'idempotency-key': 'up-1' });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reuse');
  });

  it('creates records from a known hash, and tells whether a blob exists', async () => {
    const bytes = Buffer.from(`from-hash-${Math.random()}`);
    const hash = await blake3(bytes);
    const head = (h: string) => fetch(`${ctx.server.url}/api/v2/assets/by-hash/${h}`, { method: 'HEAD', headers: v2Auth(ctx.server) });
    expect((await head(hash)).status).toBe(404);
    const missing = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash, file_path: 'f.txt' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('blob_not_found');
    await upload(bytes, { file_path: 'orig.txt' });
    expect((await head(hash)).status).toBe(200);
    const made = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash, file_path: 'copy/f.txt' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ hash, file_path: 'copy/f.txt', content_type: 'text/plain', size_bytes: bytes.length });
    const same = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash, file_path: 'copy/f.txt' });
    expect(same.status).toBe(200);
    expect(same.body.id).toBe(made.body.id);
    const bad = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash: 'md5:x', file_path: 'f' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('invalid_request');
  });

  it('feeds an uploaded PNG to LoadImage by id and by file_path', async () => {
    const png = encodePng(solidImage(5, 4, 0x00ff00));
    const { body: asset } = await upload(png, { file_path: 'pics/green.png', content_type: 'image/png' });
    for (const ref of [asset.id, 'pics/green.png']) {
      const workflow = {
        '1': { class_type: 'LoadImage', inputs: { image: ref } },
        '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'copy' } },
      };
      const submitted = await submitJob(ctx.server, workflow);
      expect(submitted.status).toBe(201);
      const done = await waitForJob(ctx.server, submitted.body.urls.self, ['succeeded']);
      expect(done.outputs[0].hash).toBe(asset.hash); // same pixels, same encoder: same bytes
    }
  });

  it('fails LoadImage on bytes that are not an image', async () => {
    const { body: asset } = await upload(Buffer.from(`not an image ${Math.random()}`), { file_path: 'fake.png' });
    const workflow = {
      '1': { class_type: 'LoadImage', inputs: { image: asset.id } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } },
    };
    const done = await waitForJob(ctx.server, (await submitJob(ctx.server, workflow)).body.urls.self, ['failed']);
    expect(done.error.traceback).toMatch(/UnidentifiedImageError/);
    expect(done.error.node_id).toBe('1');
  });

  it('reads job outputs as assets', async () => {
    const done = await waitForJob(
      ctx.server,
      (await submitJob(ctx.server, { '1': { class_type: 'SaveText', inputs: { text: 'out' } } })).body.urls.self,
      ['succeeded'],
    );
    const record = await getJson(ctx.server, `/api/v2/assets/${done.outputs[0].id}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ id: done.outputs[0].id, job_id: done.id, file_path: 'text_00001_.txt' });
  });
});
