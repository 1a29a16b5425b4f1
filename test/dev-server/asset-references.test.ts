// Typed asset references inside workflows: `{"__type": "core/ASSET", "info": {"id"}}` resolved by
// info.id (missing or malformed: 422 missing_asset), the executed workflow naming the file; a bare
// string in LoadImage.image is a file name the engine reads from its input folder, so an asset id
// there is refused as the engine refused it (`Invalid image file: <id>`).
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { solidImage } from '../../src/dev-server/engine/image.js';
import { assetReference } from '../../src/protocol/jobs.js';
import reference from './reference/v2-proxy.json' with { type: 'json' };
import { getJson, submitJob, uploadAsset, useDevServer, waitForJob, type Json } from '../helpers/dev-server.js';

function loadImage(image: unknown, prefix = 'ref'): Json {
  return {
    '1': { class_type: 'LoadImage', inputs: { image } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: prefix } },
  };
}

for (const deployment of ['cloud', 'self-hosted'] as const) {
  describe(`typed asset references (${deployment})`, () => {
    const ctx = useDevServer({ deployment });

    async function uploadPng(path: string, color: number): Promise<Json> {
      return (await uploadAsset(ctx.server, encodePng(solidImage(5, 4, color)), { file_path: path, content_type: 'image/png' })).body;
    }

    it('runs a LoadImage given a typed reference; the executed workflow names the file, as the reference server\'s did', async () => {
      const asset = await uploadPng(`pics/green-${deployment}.png`, 0x00ff00);
      const submitted = await submitJob(ctx.server, loadImage(assetReference(asset as { id: string })));
      expect(submitted.status).toBe(201);
      await waitForJob(ctx.server, submitted.body.urls.self, ['succeeded']);
      const workflow = await getJson(ctx.server, `/api/v2/jobs/${submitted.body.id}/workflow`);
      expect(workflow.body.workflow['1'].inputs.image).toBe(`pics/green-${deployment}.png`);
      expect(Object.keys(workflow.body).sort()).toEqual(Object.keys(reference.loadimage_workflow.body!).sort());
    });

    it('reads exactly the asset info.id names, whatever file_path another upload took later; hints never override it', async () => {
      const first = await uploadPng(`same-${deployment}.png`, 0xff0000);
      await uploadPng(`same-${deployment}.png`, 0x0000ff);
      const ref = { __type: 'core/ASSET', info: { id: first.id, hash: `blake3:${'0'.repeat(64)}`, file_path: 'elsewhere.png' } };
      const done = await waitForJob(ctx.server, (await submitJob(ctx.server, loadImage(ref, 'exact'))).body.urls.self, ['succeeded']);
      const copy = Buffer.from(await (await fetch(new URL(done.outputs[0].url, ctx.server.url))).arrayBuffer());
      const original = encodePng(solidImage(5, 4, 0xff0000));
      expect(copy.equals(original)).toBe(true);
    });

    it('takes a reference to an earlier job\'s output (outputs are assets)', async () => {
      const first = await waitForJob(ctx.server, (await submitJob(ctx.server, loadImage(assetReference((await uploadPng(`src-${deployment}.png`, 0x445566)) as { id: string }), 'first'))).body.urls.self, ['succeeded']);
      const output = first.outputs[0];
      const second = await submitJob(ctx.server, loadImage({ __type: 'core/ASSET', info: { id: output.id } }, 'second'));
      expect(second.status).toBe(201);
      const done = await waitForJob(ctx.server, second.body.urls.self, ['succeeded']);
      const bytes = async (url: string) => Buffer.from(await (await fetch(new URL(url, ctx.server.url))).arrayBuffer());
      expect((await bytes(done.outputs[0].url)).equals(await bytes(output.url))).toBe(true);
    });

    it('refuses an unknown or malformed reference with 422 missing_asset naming the node and input', async () => {
      const cases: unknown[] = [
        { __type: 'core/ASSET', info: { id: '00000000-0000-0000-0000-000000000000' } },
        { __type: 'core/ASSET', info: { hash: `blake3:${'0'.repeat(64)}` } },
        { __type: 'core/ASSET' },
        { __type: 'core/ASSET', info: { id: 7 } },
      ];
      for (const ref of cases) {
        const res = await submitJob(ctx.server, loadImage(ref));
        expect([JSON.stringify(ref), res.status, res.body.error.code]).toEqual([JSON.stringify(ref), 422, 'missing_asset']);
        expect(res.body.error.details.node_errors['1']).toMatchObject({ class_type: 'LoadImage', errors: [{ type: 'missing_asset', details: 'image' }] });
      }
    });

    it('takes a bare file_path the input folder holds, and refuses a bare asset id as the engine does', async () => {
      const asset = await uploadPng(`bare-${deployment}.png`, 0x336699);
      const byPath = await submitJob(ctx.server, loadImage(`bare-${deployment}.png`));
      expect(byPath.status).toBe(201);
      await waitForJob(ctx.server, byPath.body.urls.self, ['succeeded']);
      const byId = await submitJob(ctx.server, loadImage(asset.id));
      expect(byId.status).toBe(422);
      expect(byId.body.error.code).toBe('invalid_workflow');
      // Self-hosted passes ComfyUI's own entry on (with its extra_info), the hosted ones their gateway's.
      const extra = deployment === 'self-hosted' ? { extra_info: {} } : {};
      expect(byId.body.error.details.node_errors['1'].errors).toEqual([
        { type: 'custom_validation_failed', message: 'Custom validation failed for node', details: `image - Invalid image file: ${asset.id}`, ...extra },
      ]);
    });

    it('fails LoadImage on bytes that are not an image', async () => {
      const { body: asset } = await uploadAsset(ctx.server, Buffer.from(`not an image ${Math.random()}`), { file_path: `fake-${deployment}.png` });
      const done = await waitForJob(ctx.server, (await submitJob(ctx.server, loadImage(assetReference(asset as { id: string })))).body.urls.self, ['failed']);
      expect(done.error.traceback).toMatch(/UnidentifiedImageError/);
      expect(done.error.node_id).toBe('1');
    });
  });
}

describe('typed asset references on serverless: resolved at the gateway', () => {
  const prefix = '/deployment/dev-deployment';
  const ctx = useDevServer({ deployment: 'serverless' });

  it('refuses a missing reference at submit (422 missing_asset), while a bare unknown file name fails on the engine', async () => {
    const missing = await submitJob(ctx.server, loadImage({ __type: 'core/ASSET', info: { id: 'nope' } }), { prefix });
    expect([missing.status, missing.body.error.code]).toEqual([422, 'missing_asset']);
    const bare = await submitJob(ctx.server, loadImage('no-such-file.png'), { prefix });
    expect(bare.status).toBe(201);
    const failed = await waitForJob(ctx.server, bare.body.urls.self, ['failed']);
    expect(failed.error.node_errors['1'].errors[0].type).toBe('custom_validation_failed');
  });
});
