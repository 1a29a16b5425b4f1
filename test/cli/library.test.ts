// wes library (Comfy Cloud's asset library, cloud API v1) against the dev-server's cloud, which
// serves it as openapi-cloud.yaml publishes: add (the hash asked first: the same content again is
// a new record with no bytes sent), list with tag and name filters and pages, get, rename and
// retag, tags with counts and refined by a filter, delete.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { requestCounts, startFast } from '../helpers/dev-server.js';
import { tempConfigDir } from '../helpers/cli.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

describe('wes library on the cloud API v1', () => {
  const dir = useTempDir();
  let server: DevServerHandle;
  let config: ReturnType<typeof tempConfigDir>;
  beforeAll(async () => {
    server = await startFast({ deployment: 'cloud' });
    config = tempConfigDir();
  });
  afterAll(async () => {
    config.cleanup();
    await server.close();
  });
  const run = wesAgainst(() => server);
  const wes = (args: string[]) => run(args, { configDir: config.dir });
  const json = async (args: string[]) => {
    const res = await wes([...args, '--json']);
    expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
    return JSON.parse(res.stdout);
  };

  it('add, the same content again without sending it, list, get, update, tags, rm', async () => {
    const file = join(dir(), 'lora.safetensors');
    writeFileSync(file, Buffer.alloc(4096, 7));
    const first = await wes(['library', 'add', file, '--tag', 'models', '--tag', 'lora']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/4096 bytes uploaded/);
    const id = first.stdout.trim();
    const before = (await requestCounts(server))['POST /api/assets'];
    const again = await wes(['library', 'add', file, '--tag', 'input', '--name', 'copy']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already stored: no bytes sent/);
    expect((await requestCounts(server))['POST /api/assets']).toBe(before);
    const copy = again.stdout.trim();
    expect(copy).not.toBe(id);

    const lora = await json(['library', 'list', '--tag', 'lora']);
    expect([lora.total, lora.assets.map((a: { id: string }) => a.id)]).toEqual([1, [id]]);
    expect((await json(['library', 'list', '--exclude-tag', 'lora'])).assets.map((a: { id: string }) => a.id)).toEqual([copy]);
    expect((await json(['library', 'list', '--name', 'COP'])).total).toBe(1);
    const paged = await wes(['library', 'list', '--limit', '1']);
    expect(paged.stderr).toMatch(/1 of 2 asset\(s\); next page: --offset 1/);

    const asset = await json(['library', 'get', id]);
    expect(asset).toMatchObject({ id, name: 'lora.safetensors', size: 4096, tags: ['models', 'lora'] });
    expect(asset).not.toHaveProperty('created_new');
    expect(asset.asset_hash).toMatch(/^blake3:[0-9a-f]{64}$/);

    const updated = await json(['library', 'update', id, '--name', 'my lora', '--add-tag', 'favourite', '--remove-tag', 'models']);
    expect(updated.tags).toEqual(['lora', 'favourite']);
    expect((await json(['library', 'get', id])).name).toBe('my lora');
    expect((await json(['library', 'update', copy, '--tags', 'input,cats'])).tags).toEqual(['input', 'cats']);

    expect(await json(['library', 'tags'])).toEqual({ lora: 1, favourite: 1, input: 1, cats: 1 });
    expect(await json(['library', 'tags', '--tag', 'lora'])).toEqual({ lora: 1, favourite: 1 });

    expect((await wes(['library', 'rm', copy])).code).toBe(0);
    const gone = await wes(['library', 'get', copy]);
    expect(gone.code).toBe(5);
  });

  it('refuses locally what the server would: no tag, a page size out of range, nothing to update', async () => {
    const file = join(dir(), 'x.bin');
    writeFileSync(file, 'x');
    expect((await wes(['library', 'add', file])).code).toBe(2);
    expect((await wes(['library', 'list', '--limit', '501'])).code).toBe(2);
    expect((await wes(['library', 'update', 'some-id'])).code).toBe(2);
  });
});
