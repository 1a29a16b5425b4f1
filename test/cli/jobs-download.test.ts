// `wes jobs download` (and `logs` on a surface without logs) through the built binary: verified
// saves, a hash that starts null, a corrupted body, hostile and duplicate names.
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blake3File } from '../../src/files/blake3.js';
import { addFaults, finishedJob, getJson, imageWorkflow, useDevServer, type Json } from '../helpers/dev-server.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { seen, twinWorkflow, useTempDir, wesAgainst } from './jobs-env.js';

const HASH_DELAY_MS = 1200;

/** The Job of `workflow`, once it has succeeded. */
const finished = async (server: DevServerHandle, workflow: Json): Promise<Json> => (await finishedJob(server, workflow)).job;

/** Waits until every output reports its hash (the server computes them lazily). */
async function withHashes(server: DevServerHandle, job: Json): Promise<Json> {
  for (;;) {
    const now = (await getJson(server, `/api/v2/jobs/${job.id}`)).body;
    if (now.outputs.every((o: Json) => o.hash !== null)) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('wes jobs download', () => {
  // Outputs hashed as they are committed, so no test waits for a hash; the next block hashes late.
  const ctx = useDevServer({ faults: true, hashDelayMs: 0 });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('removes the temp file of a job.json whose writer was killed before its rename, and leaves anything else', async () => {
    const job = await withHashes(ctx.server, await finished(ctx.server, imageWorkflow({ prefix: 'stale' })));
    const out = join(dir(), 'stale-temps');
    mkdirSync(out);
    const stale = join(out, '.job.json.b7a82804e77ab16c.tmp');
    writeFileSync(stale, '{"id":');
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(stale, hourAgo, hourAgo);
    writeFileSync(join(out, '.job.json.notours.tmp'), 'x');
    const res = await wes(['jobs', 'download', job.id, out]);
    expect(res.code, res.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.job.json.notours.tmp', 'job.json', 'stale_00001_.png']);
  });

  it('saves every output, verified, with job.json, into ./<job-id> by default; stdout lists the paths', async () => {
    const job = await withHashes(ctx.server, await finished(ctx.server, imageWorkflow({ prefix: 'plain' })));
    const res = await wes(['jobs', 'download', job.id], { cwd: dir() });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`${job.id}/plain_00001_.png\n`);
    const saved = join(dir(), job.id, 'plain_00001_.png');
    expect(await blake3File(saved)).toBe(job.outputs[0].hash);
    expect(JSON.parse(readFileSync(join(dir(), job.id, 'job.json'), 'utf8'))).toMatchObject({ id: job.id, status: 'succeeded' });
    expect(readdirSync(join(dir(), job.id)).sort()).toEqual(['job.json', 'plain_00001_.png']);
    expect(res.stderr).toContain('saved 1 of 1 output(s)');
    expect(res.stderr).not.toContain('without a blake3 check');
  });

  it('--json prints one array of {name, path, bytes, hash, verified, asset_id}', async () => {
    const job = await withHashes(ctx.server, await finished(ctx.server, imageWorkflow({ prefix: 'js' })));
    const out = join(dir(), 'json-out');
    const res = await wes(['jobs', 'download', job.id, out, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([
      { name: 'js_00001_.png', path: join(out, 'js_00001_.png'), bytes: job.outputs[0].size_bytes, hash: job.outputs[0].hash, verified: true, asset_id: job.outputs[0].id },
    ]);
  });

  it('a corrupted body fails the blake3 check: exit 1 and no file, not even a .part', async () => {
    const job = await withHashes(ctx.server, await finished(ctx.server, imageWorkflow({ prefix: 'bad' })));
    await addFaults(ctx.server, { match: 'GET /signed/**', action: 'corrupt', after_bytes: 100 });
    const out = join(dir(), 'corrupt');
    const res = await wes(['jobs', 'download', job.id, out]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('blake3 mismatch');
    expect(res.stderr).toContain('code integrity_check_failed');
    expect(readdirSync(out)).toEqual(['job.json']);

  });

  it('keeps a hostile name inside DIR and two outputs with one name apart', async () => {
    const job = await finished(ctx.server, twinWorkflow('../../x'));
    expect(job.outputs.map((o: Json) => o.name)).toEqual(['../../x_00001_.png', '../../x_00001_.png']);
    const base = join(dir(), 'hostile');
    const out = join(base, 'a', 'b');
    const res = await wes(['jobs', 'download', job.id, out]);
    expect(res.code, res.stderr).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toHaveLength(3);
    expect(files).toContain('job.json');
    const paths = res.stdout.trim().split('\n');
    expect(paths).toHaveLength(2);
    expect(new Set(paths).size).toBe(2);
    for (const p of paths) expect(p.startsWith(`${out}/`) && !p.slice(out.length + 1).includes('/')).toBe(true);
    expect(existsSync(join(base, 'x_00001_.png'))).toBe(false);
    expect(existsSync(join(dir(), 'x_00001_.png'))).toBe(false);
  });

  it('fetches output URLs with no credential (the signed host refuses one with 400)', async () => {
    const job = await finished(ctx.server, imageWorkflow({ prefix: 'nocred' }));
    const before = seen(ctx.server, `GET /signed/${job.outputs[0].id}/nocred_00001_.png`);
    const res = await wes(['jobs', 'download', job.id, join(dir(), 'nocred')]);
    expect(res.code, res.stderr).toBe(0);
    expect(seen(ctx.server, `GET /signed/${job.outputs[0].id}/nocred_00001_.png`) - before).toBe(1);
  });

  it('logs: a surface without a logs link says so and exits 0', async () => {
    const job = await finished(ctx.server, imageWorkflow());
    const res = await wes(['jobs', 'logs', job.id]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('this server keeps no logs of what jobs print (its jobs carry no logs link)');
  });
});

describe('wes jobs download of outputs the server hashes late', () => {
  const ctx = useDevServer({ faults: true, hashDelayMs: HASH_DELAY_MS });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('a hash still null when the download starts is asked for again once the bytes are in', async () => {
    const job = await finished(ctx.server, imageWorkflow({ prefix: 'late' }));
    expect(job.outputs[0].hash).toBeNull();
    // Hold the bytes back past the hash delay, so the one re-read finds the hash.
    await addFaults(ctx.server, { match: 'GET /signed/**', action: 'delay', delay_ms: HASH_DELAY_MS + 200 });
    const res = await wes(['jobs', 'download', job.id, join(dir(), 'late'), '--json']);
    expect(res.code, res.stderr).toBe(0);
    const [saved] = JSON.parse(res.stdout);
    expect(saved.verified).toBe(true);
    expect(saved.hash).toBe((await withHashes(ctx.server, job)).outputs[0].hash);

    const early = await finished(ctx.server, imageWorkflow({ prefix: 'early' }));
    const unchecked = await wes(['jobs', 'download', early.id, join(dir(), 'early'), '--json']);
    expect(unchecked.code).toBe(0);
    expect(JSON.parse(unchecked.stdout)[0].verified).toBe(false);
    expect(unchecked.stderr).toContain('1 file(s) not verified by hash (the service reported none); sizes checked against the transfer');
  });
});
