// `models run -i KEY=asset:ID|@FILE` where the model's schema says `format: uri`: the model gets a
// URL the service hosts (the signed redirect of the asset's content route on a hosted service, the
// content route itself where the server serves the bytes), which dev/caption downloads with no
// credential. Fields without `format: uri` keep their old reading.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { encodeGradientPng } from '../../src/dev-server/models/stock/png.js';
import { startFast, useDevServer } from '../helpers/dev-server.js';
import { seen, wesAgainst } from './models-env.js';

const holder = useDevServer();
const wes = wesAgainst(() => holder.server);
let work: string;
let png: string;
let pngSha: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wes-hosted-url-'));
  png = join(work, 'cat.png');
  const bytes = encodeGradientPng(80, 64, 3);
  writeFileSync(png, bytes);
  pngSha = createHash('sha256').update(bytes).digest('hex');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a format: uri field on a hosted service', () => {
  it('@FILE uploads the file as an asset and passes its signed URL, which the model downloads without a credential', async () => {
    const r = await wes(['models', 'run', 'dev/caption', '-i', `image_url=@${png}`]);
    expect(r.stderr).toContain('uploaded');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ caption: 'a 80x64 PNG image', sha256: pngSha, width: 80, height: 64 });
  });

  it('@FILE a second time sends no bytes: the service already holds them (HEAD by-hash first)', async () => {
    const r = await wes(['models', 'run', 'dev/caption', '-i', `image_url=@${png}`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('already held');
    expect(JSON.parse(r.stdout).sha256).toBe(pngSha);
  });

  it('asset:ID passes the URL of an asset already on the service', async () => {
    const up = await wes(['assets', 'upload', png]);
    expect(up.code).toBe(0);
    const id = up.stdout.trim();
    const r = await wes(['models', 'run', 'dev/caption', '-i', `image_url=asset:${id}`, '-i', 'detail=long']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ sha256: pngSha });
  });

  it('an unknown asset id stops before the model is run', async () => {
    const runs = () => seen(holder.server, 'POST /v1/models/dev/caption') + seen(holder.server, 'POST /v2/models/dev/caption');
    const before = runs();
    const r = await wes(['models', 'run', 'dev/caption', '-i', 'image_url=asset:00000000-0000-4000-8000-000000000000', '--json']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Unknown asset id|not_found/);
    expect(runs()).toBe(before);
  });

  it('a URL typed as it is goes to the model unchanged', async () => {
    const r = await wes(['models', 'run', 'dev/caption', '-i', 'image_url=data:image/png;base64,AAAA']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('image_url must be an http(s) URL');
  });

  it('a field without format: uri keeps asset:... as text', async () => {
    const r = await wes(['models', 'run', 'dev/echo', '-i', 'message=asset:abc']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ message: 'asset:abc' });
  });
});

describe('a format: uri field on a server that serves the bytes itself', () => {
  let server: DevServerHandle;
  beforeAll(async () => {
    server = await startFast({ deployment: 'self-hosted' });
  });
  afterAll(() => server?.close());

  it('passes the content route itself (it answered 200, no redirect)', async () => {
    const r = await runSelfHosted(server, ['models', 'run', 'dev/caption', '-i', `image_url=@${png}`]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).sha256).toBe(pngSha);
  });
});

describe('a format: uri field on a self-hosted server behind a token', () => {
  let server: DevServerHandle;
  beforeAll(async () => {
    server = await startFast({ deployment: 'self-hosted', apiKey: 'self-token-0001' });
  });
  afterAll(() => server?.close());

  it('passes the content route, which the partner, holding no credential, cannot fetch: its refusal is shown', async () => {
    const r = await runSelfHosted(server, ['models', 'run', 'dev/caption', '-i', `image_url=@${png}`]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('could not download image_url (HTTP 401)');
  });
});

function runSelfHosted(server: DevServerHandle, args: string[]) {
  return wesAgainst(() => server)(args, { env: { WES_API_KEY: server.apiKey ?? 'any', WES_ROUTER_TOKEN: server.apiKey ?? 'any' } });
}
