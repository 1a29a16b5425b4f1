// Comfy Cloud strips GPS/XMP/IPTC metadata from an uploaded image, so it stores the bytes under
// another hash than the local file's and the blob lookup by the local hash never finds them
// (../shared/observations/job-api-v2-deployments.md). wes remembers, per base URL, which asset the
// local bytes became and reads that asset on the next upload instead of sending them again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { blake3File } from '../../src/files/blake3.js';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { solidImage } from '../../src/dev-server/engine/image.js';
import { tempConfigDir } from '../helpers/cli.js';
import { getJson, imageWorkflow, useDevServer, v2Auth } from '../helpers/dev-server.js';
import { seen, useTempDir, wesAgainst } from './jobs-env.js';

/** A PNG with a tEXt chunk after its header, as a camera or editor leaves metadata in one. */
function pngWithText(text: string): Buffer {
  const png = encodePng(solidImage(4, 4, 0xc80a0a));
  const body = Buffer.concat([Buffer.from('tEXt', 'latin1'), Buffer.from(`Comment\0${text}`, 'latin1')]);
  const chunk = Buffer.alloc(body.length + 8);
  chunk.writeUInt32BE(body.length - 4, 0);
  body.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(body), body.length + 4);
  const afterHeader = 8 + 12 + 13;
  return Buffer.concat([png.subarray(0, afterHeader), chunk, png.subarray(afterHeader)]);
}

describe('an image Comfy Cloud stores under another hash', () => {
  const ctx = useDevServer();
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();
  const config = tempConfigDir();
  afterAll(() => config.cleanup());
  const uploads = () => seen(ctx.server, 'POST /api/v2/assets');

  it('is uploaded once: the next run reads the asset it became by id and says so', async () => {
    const file = join(dir(), 'photo.png');
    writeFileSync(file, pngWithText('taken at 48.85N 2.35E'));
    const local = await blake3File(file);

    const first = await wes(['assets', 'upload', file, '--json'], { configDir: config.dir });
    expect(first.code, first.stderr).toBe(0);
    const made = JSON.parse(first.stdout) as { id: string; hash: string };
    expect(made.hash).not.toBe(local);
    expect(uploads()).toBe(1);

    const second = await wes(['assets', 'upload', file, '--json'], { configDir: config.dir });
    expect(second.code, second.stderr).toBe(0);
    expect((JSON.parse(second.stdout) as { id: string }).id).toBe(made.id);
    expect(uploads()).toBe(1);
    expect(second.stderr).toContain(`reusing the earlier upload (the service stored it under another hash) of ${file}`);
    expect(seen(ctx.server, `GET /api/v2/assets/${made.id}`)).toBeGreaterThanOrEqual(1);

    // A submit that names the file reuses it too, and says so.
    const flow = join(dir(), 'flow.json');
    writeFileSync(flow, JSON.stringify(imageWorkflow({ steps: 1 })));
    const submit = await wes(['jobs', 'submit', flow, '--set', `1.width=@${file}`], { configDir: config.dir });
    expect(submit.stderr).toContain(`reusing the earlier upload`);
    expect(uploads()).toBe(1);
  });

  it('is uploaded again when the remembered asset is gone', async () => {
    const file = join(dir(), 'gone.png');
    writeFileSync(file, pngWithText('another place'));
    const first = await wes(['assets', 'upload', file, '--json'], { configDir: config.dir });
    const made = JSON.parse(first.stdout) as { id: string };
    const before = uploads();
    const del = await fetch(`${ctx.server.url}/api/v2/assets/${made.id}`, { method: 'DELETE', headers: v2Auth(ctx.server) });
    expect(del.status).toBeLessThan(300);
    expect((await getJson(ctx.server, `/api/v2/assets/${made.id}`)).status).toBe(404);
    const again = await wes(['assets', 'upload', file], { configDir: config.dir });
    expect(again.code, again.stderr).toBe(0);
    expect(uploads()).toBe(before + 1);
  });
});
