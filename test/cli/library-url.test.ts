// wes library's operations that have the cloud fetch a remote file, against the dev-server's cloud
// (openapi-cloud.yaml: uploadAsset's JSON form, getRemoteAssetMetadata, createAssetDownload, and the
// task route it names). The dev-server has no internet: a small file server on 127.0.0.1 (one for
// each test) stands in for Hugging Face (the dev-server's remoteOrigins sends huggingface.co there),
// and every request it gets is checked to carry nothing of wes's credential.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { startFast } from '../helpers/dev-server.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { startTestServer, type Handler, type TestServer } from '../helpers/http-server.js';
import { interruptWhen, seen, wesAgainst } from './jobs-env.js';

const MODEL = Buffer.alloc(96 * 1024, 3);
/** Other content, so that a slow download makes an asset of its own (the same content is the same asset). */
const SLOW = Buffer.alloc(96 * 1024, 4);
const CAT = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 9)]);
const HF = 'https://huggingface.co/org/repo/resolve/main';

/** The body in `pieces` parts `gapMs` apart: a download that takes a while; `cutAfter` parts, then the connection drops. */
async function slowly(res: ServerResponse, body: Buffer, pieces: number, gapMs: number, cutAfter = pieces): Promise<void> {
  const size = Math.ceil(body.length / pieces);
  for (let i = 0; i < cutAfter; i++) {
    res.write(body.subarray(i * size, (i + 1) * size));
    await new Promise((r) => setTimeout(r, gapMs));
  }
  if (cutAfter < pieces) res.destroy();
  else res.end();
}

/** The stand-in for Hugging Face and the other origins: files, some slow or cut short, a 401, a 404. */
const serveFiles: Handler = async (req, res) => {
  const path = new URL(req.url!, 'http://x').pathname;
  const head = (type: string, length: number, more: Record<string, string> = {}) => res.writeHead(200, { 'content-type': type, 'content-length': String(length), ...more });
  if (path === '/cat.png') {
    head('image/png', CAT.length);
    return res.end(req.method === 'HEAD' ? undefined : CAT);
  }
  if (path === '/org/repo/resolve/main/model.safetensors' || path === '/org/repo/resolve/main/slow.safetensors' || path === '/org/repo/resolve/main/cut.safetensors' || path === '/org/repo/resolve/main/slower.safetensors') {
    const name = path.split('/').pop()!;
    head('application/octet-stream', MODEL.length, { 'content-disposition': `attachment; filename="${name}"` });
    if (req.method === 'HEAD') return res.end();
    if (name === 'model.safetensors') return res.end(MODEL);
    if (name === 'slower.safetensors') return slowly(res, SLOW, 8, 1000);
    return slowly(res, SLOW, 8, 150, name === 'cut.safetensors' ? 3 : 8);
  }
  if (path === '/org/repo/resolve/main/old.ckpt') {
    head('application/octet-stream', 10);
    return res.end(req.method === 'HEAD' ? undefined : Buffer.alloc(10));
  }
  if (path.startsWith('/private/')) return res.writeHead(401).end();
  res.writeHead(404).end();
};

/** What each test has of its own: a file server, a cloud dev-server that sends huggingface.co there, a config folder. */
const worlds: { files: TestServer; server: DevServerHandle; config: ReturnType<typeof tempConfigDir> }[] = [];
afterAll(async () => {
  try {
    // The remote origins saw only the cloud: never wes's credential, in any header.
    expect(worlds.flatMap(({ files }) => files.requests).length).toBeGreaterThan(0);
    for (const { files, server } of worlds) {
      for (const r of files.requests) {
        expect(r.headers['x-api-key']).toBeUndefined();
        expect(r.headers.authorization).toBeUndefined();
        expect(JSON.stringify(r.headers)).not.toContain(server.apiKey!);
      }
    }
  } finally {
    await Promise.all(
      worlds.splice(0).map(async ({ files, server, config }) => {
        config.cleanup();
        await server.close();
        await files.close();
      }),
    );
  }
});

/** A file server, a cloud dev-server that sends huggingface.co there, and wes against it with a config folder: for one test. */
async function own() {
  const files = await startTestServer(serveFiles);
  const server = await startFast({ deployment: 'cloud', remoteOrigins: { 'huggingface.co': files.origin } });
  const config = tempConfigDir();
  worlds.push({ files, server, config });
  const run = wesAgainst(() => server);
  const wes = (args: string[], opts: Parameters<typeof run>[1] = {}) => run(args, { configDir: config.dir, ...opts });
  const json = async (args: string[]) => {
    const res = await wes([...args, '--json']);
    expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
    return JSON.parse(res.stdout);
  };
  return { files, server, wes, json };
}

// Each test has a file server, a cloud and a config folder of its own (the files' and the cloud's
// request counts, the assets made), so the tests run side by side: most of the file is waiting
// out slow downloads and the cloud's tasks.
describe.concurrent('wes library from a URL: add --url, remote-info, download, task', () => {
  it('add --url: the cloud fetches the file (uploadAsset, JSON form); the same content again returns that asset', async () => {
    const { files, wes, json } = await own();
    const first = await wes(['library', 'add', '--url', `${files.origin}/cat.png`, '--tag', 'input']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(new RegExp(`${CAT.length} bytes fetched by the cloud from 127\\.0\\.0\\.1`));
    const id = first.stdout.trim();
    const asset = await json(['library', 'get', id]);
    expect(asset).toMatchObject({ id, name: 'cat.png', size: CAT.length, mime_type: 'image/png', tags: ['input'] });
    const again = await json(['library', 'add', '--url', `${files.origin}/cat.png?again`, '--name', 'cat again.png', '--tag', 'input']);
    expect(again).toMatchObject({ id, created_new: false });
    expect(files.requests.filter((r) => r.url.startsWith('/cat.png')).map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('add --url refusals: a URL that is not http(s), both a file and --url, the source\'s 404 and 401, a host the cloud cannot reach', async () => {
    const { files, server, wes } = await own();
    const before = seen(server, 'POST /api/assets');
    const ftp = await wes(['library', 'add', '--url', 'ftp://example.com/x.png', '--tag', 'input']);
    expect([ftp.code, ftp.stderr]).toEqual([2, expect.stringMatching(/only http and https URLs, not ftp/)]);
    expect((await wes(['library', 'add', 'x.png', '--url', `${files.origin}/cat.png`, '--tag', 'input'])).code).toBe(2);
    expect((await wes(['library', 'add', '--url', `${files.origin}/`, '--tag', 'input'])).stderr).toMatch(/names no file: give the asset a name with --name/);
    expect(seen(server, 'POST /api/assets')).toBe(before);

    const missing = await wes(['library', 'add', '--url', `${files.origin}/gone.png`, '--tag', 'input']);
    expect([missing.code, missing.stderr]).toEqual([5, expect.stringMatching(/has no file at \/gone\.png/)]);
    const locked = await wes(['library', 'add', '--url', `${files.origin}/private/x.png`, '--tag', 'input']);
    expect([locked.code, locked.stderr]).toEqual([4, expect.stringMatching(/needs authentication/)]);
    const far = await wes(['library', 'add', '--url', 'https://example.com/x.png', '--tag', 'input']);
    expect([far.code, far.stderr]).toEqual([6, expect.stringMatching(/could not reach example\.com/)]);
  });

  it('remote-info: name, size, type and whether the cloud takes it, the file not fetched', async () => {
    const { files, wes, json } = await own();
    const gets = files.requests.filter((r) => r.method === 'GET').length;
    const shown = await wes(['library', 'remote-info', `${HF}/model.safetensors`]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/file\s+model\.safetensors/);
    expect(shown.stdout).toMatch(/size\s+96 KiB \(98304 bytes\)/);
    expect(shown.stdout).toMatch(/valid\s+yes/);
    const pickle = await json(['library', 'remote-info', `${HF}/old.ckpt`]);
    expect(pickle).toMatchObject({ content_length: 10, filename: 'old.ckpt', validation: { is_valid: false, errors: [{ code: 'FORMAT_NOT_ALLOWED', field: 'format' }] } });
    expect((await wes(['library', 'remote-info', `${HF}/old.ckpt`])).stdout).toMatch(/valid\s+no: the cloud will not download it/);
    expect(files.requests.filter((r) => r.method === 'GET').length).toBe(gets);
    const far = await wes(['library', 'remote-info', 'https://example.com/x.safetensors']);
    expect([far.code, far.stderr]).toEqual([6, expect.stringMatching(/failed to retrieve metadata/)]);
  });

  it('download: a task, followed later with library task --wait; the same URL again is the asset at once (200)', async () => {
    const { files, server, wes, json } = await own();
    const started = await wes(['library', 'download', `${HF}/model.safetensors`, '--tag', 'models', '--tag', 'checkpoint']);
    expect(started.code, started.stderr).toBe(0);
    const taskId = started.stdout.trim();
    expect(started.stderr).toContain(`follow it with: wes library task ${taskId} --wait`);
    const followed = await wes(['library', 'task', taskId, '--wait', '--interval', '0.05']);
    expect(followed.code, followed.stderr).toBe(0);
    const assetId = followed.stdout.trim();
    expect(await json(['library', 'get', assetId])).toMatchObject({ name: 'model.safetensors', size: MODEL.length, tags: ['models', 'checkpoint'] });
    expect(await json(['library', 'task', taskId])).toMatchObject({ id: taskId, status: 'completed', result: { success: true, asset_id: assetId, bytes_downloaded: MODEL.length } });
    // Following a task that has ended reads it once: the read that named the file is the follow's first.
    const reads = seen(server, `GET /api/tasks/${taskId}`);
    const over = await wes(['library', 'task', taskId, '--wait']);
    expect([over.code, over.stdout.trim()]).toEqual([0, assetId]);
    expect(seen(server, `GET /api/tasks/${taskId}`)).toBe(reads + 1);

    const gets = files.requests.filter((r) => r.method === 'GET').length;
    const again = await wes(['library', 'download', `${HF}/model.safetensors`, '--tag', 'models']);
    expect([again.code, again.stdout.trim()]).toEqual([0, assetId]);
    expect(again.stderr).toMatch(/the cloud had the file already: nothing downloaded/);
    expect(files.requests.filter((r) => r.method === 'GET').length).toBe(gets);
  });

  it('download --wait: the state on stderr as it changes, then the asset id on stdout', async () => {
    const { wes, json } = await own();
    const res = await wes(['library', 'download', `${HF}/slow.safetensors`, '--tag', 'models', '--wait', '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/downloading slow\.safetensors \(96 KiB\): running/);
    expect(res.stderr).toMatch(/slow\.safetensors in the library as \S+ \(96 KiB downloaded in \d+ s\)/);
    const asset = await json(['library', 'get', res.stdout.trim()]);
    expect(asset).toMatchObject({ name: 'slow.safetensors', size: SLOW.length, tags: ['models'] });
  });

  it('download --wait on a terminal: a spinner redrawn in place on stderr, stdout only the id', async () => {
    const { wes } = await own();
    const res = await wes(['library', 'download', `${HF}/slow.safetensors?tty`, '--tag', 'models', '--wait', '--interval', '0.05'], { terminal: { stderrTTY: true, columns: 100 } });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/\r|\u001b\[/);
    expect(res.stderr).toMatch(/downloading slow\.safetensors/);
    expect(res.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('download refusals: a source other than Hugging Face or Civitai (400), a pickled model (422), a failed download (exit 3)', async () => {
    const { files, wes } = await own();
    const other = await wes(['library', 'download', `${files.origin}/cat.png`]);
    expect([other.code, other.stderr]).toEqual([6, expect.stringMatching(/must be from huggingface\.co or civitai\.com/)]);
    const pickle = await wes(['library', 'download', `${HF}/old.ckpt`, '--tag', 'models']);
    expect([pickle.code, pickle.stderr]).toEqual([6, expect.stringMatching(/PickleTensor" is not allowed/)]);
    const cut = await wes(['library', 'download', `${HF}/cut.safetensors`, '--tag', 'models', '--wait', '--interval', '0.05']);
    expect(cut.code, cut.stderr).toBe(3);
    expect(cut.stderr).toMatch(/download task \S+ failed/);
    expect(cut.stdout).toBe('');
    expect((await wes(['library', 'task', 'no-such-task'])).code).toBe(5);
  });

  it('Ctrl-C while following: the download goes on in the cloud, and the command to pick it up is said', async () => {
    const { wes, json } = await own();
    const res = await wes(['library', 'download', `${HF}/slow.safetensors?interrupted`, '--tag', 'models', '--wait', '--interval', '0.05'], { onSpawn: interruptWhen(/running/) });
    expect(res.code).toBe(130);
    const taskId = /wes library task (\S+) --wait/.exec(res.stderr)?.[1];
    expect(res.stderr).toMatch(/goes on in the cloud/);
    const resumed = await wes(['library', 'task', taskId!, '--wait', '--interval', '0.05']);
    expect(resumed.code, resumed.stderr).toBe(0);
    // The task names its file as the download did: the URL's last segment, without its query.
    expect(resumed.stderr).toContain('downloading slow.safetensors');
    expect(resumed.stderr).not.toContain('?interrupted');
    expect((await json(['library', 'get', resumed.stdout.trim()])).size).toBe(MODEL.length);
  });
});

// Its 2 s deadline covers wes's start and the making of the download, not only the following: it
// runs alone, after the tests above, whose work on this process's one thread would eat into it.
describe('wes library from a URL: a follow cut short', () => {
  it('--timeout while following: exit 8, and the command that follows the download again', async () => {
    const { wes } = await own();
    const res = await wes(['library', 'download', `${HF}/slower.safetensors`, '--tag', 'models', '--wait', '--interval', '0.05', '--timeout', '2']);
    expect(res.code, res.stderr).toBe(8);
    expect(res.stderr).toMatch(/the download goes on in the cloud; follow it again with: wes library task \S+ --wait/);
  });
});

describe('wes library has: the hash look-up (checkAssetByHash)', () => {
  let server: DevServerHandle;
  beforeAll(async () => {
    server = await startFast({ deployment: 'cloud' });
  });
  afterAll(() => server.close());
  const wes = wesAgainst(() => server);

  it('a file\'s content: not stored (exit 5), then stored once added (exit 0); a malformed hash is refused before any request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wes-has-'));
    try {
      const file = join(dir, 'vae.safetensors');
      writeFileSync(file, Buffer.alloc(2048, 5));
      const before = await wes(['library', 'has', file]);
      expect([before.code, before.stdout]).toEqual([5, expect.stringMatching(/^blake3:[0-9a-f]{64}\tnot stored\n$/)]);
      expect((await wes(['library', 'add', file, '--tag', 'models'])).code).toBe(0);
      const after = await wes(['library', 'has', file, '--json']);
      expect(after.code, after.stderr).toBe(0);
      const hash = JSON.parse(after.stdout).hash as string;
      expect(JSON.parse(after.stdout)).toEqual({ hash, stored: true });
      expect((await wes(['library', 'has', hash])).code).toBe(0);
      const heads = seen(server, `HEAD /api/assets/hash/${hash}`);
      expect((await wes(['library', 'has', 'blake3:XYZ'])).code).toBe(2);
      expect(seen(server, `HEAD /api/assets/hash/${hash}`)).toBe(heads);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('wes dev-server --remote-origin', () => {
  it('takes only a loopback origin to stand in for a remote host (the dev-server reaches nothing else)', async () => {
    const res = await runWes(['dev-server', '--port', '0', '--remote-origin', 'huggingface.co=https://example.com']);
    expect([res.code, res.stderr]).toEqual([2, expect.stringMatching(/HOST=ORIGIN with a loopback origin/)]);
  });
});
