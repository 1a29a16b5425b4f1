// A folder someone else can write to (a shared CI workspace, /tmp) may hold links planted at the
// names wes writes: NAME.part, job.json.part, the final name itself, the results file, the
// profile. For every writer the link's target must stay untouched (wget's CVE-2014-4877), and a
// .part wes did not make (a link, another user's file, a hard link) is moved aside, never resumed.
import { chownSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesWorkflow, submitJob, useDevServer, waitForJob, type Json } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { blake3File } from '../../src/files/blake3.js';
import { sampleWorkflow, submit, waitForStatus } from '../dev-server/legacy-kit.js';

const PRECIOUS = 'precious bytes that must survive\n';

describe('links planted where wes writes', () => {
  const ctx = useDevServer({ apiKey: 'k-planted-links-0123456789' });
  const wes = wesAgainst(() => ctx.server);
  const tmp = useTempDir();
  let n = 0;

  /** A fresh folder and a victim file outside it. */
  function scene(): { out: string; victim: string } {
    const base = join(tmp(), `scene-${++n}`);
    const out = join(base, 'out');
    mkdirSync(out, { recursive: true });
    const victim = join(base, 'victim.txt');
    writeFileSync(victim, PRECIOUS);
    return { out, victim };
  }

  function plant(at: string, victim: string): void {
    symlinkSync(victim, at);
  }

  function expectUntouched(victim: string): void {
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
  }

  async function finishedJob(size = 50_000): Promise<{ id: string; output: Json }> {
    const id = (await submitJob(ctx.server, bytesWorkflow(size))).body.id as string;
    const job = await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    return { id, output: job.outputs[0] };
  }

  it('jobs download: links at NAME.part, job.json.part and job.json are never written through', async () => {
    const { id, output } = await finishedJob();
    const { out, victim } = scene();
    plant(join(out, `${output.name}.part`), victim);
    plant(join(out, 'job.json.part'), victim);
    plant(join(out, 'job.json'), victim);
    const res = await wes(['jobs', 'download', id, out]);
    expect(res.code, res.stderr).toBe(0);
    expectUntouched(victim);
    expect(res.stderr).toMatch(/\.part is a symbolic link; moved it to .*set-aside/);
    expect(lstatSync(join(out, output.name)).isFile()).toBe(true);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(lstatSync(join(out, 'job.json')).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'job.json'), 'utf8')).id).toBe(id);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('resume: a .part that is a link, a hard link or another user\'s file is set aside, not resumed', async () => {
    const { id, output } = await finishedJob();
    for (const kind of ['symlink', 'hardlink', 'foreign'] as const) {
      const { out, victim } = scene();
      const part = join(out, `${output.name}.part`);
      if (kind === 'symlink') plant(part, victim);
      if (kind === 'hardlink') linkSync(victim, part);
      if (kind === 'foreign') {
        writeFileSync(part, PRECIOUS);
        chownSync(part, 4242, 4242);
      }
      const res = await wes(['jobs', 'download', id, out]);
      expect(res.code, `${kind}: ${res.stderr}`).toBe(0);
      expect(res.stderr, kind).toContain('moved it to');
      expectUntouched(victim);
      expect(await blake3File(join(out, output.name)), kind).toBe(output.hash);
    }
  });

  it('a link at the final name is an existing file: exit 1 naming --clobber; --clobber replaces the link, not its target', async () => {
    const { id, output } = await finishedJob();
    const { out, victim } = scene();
    plant(join(out, output.name), victim);
    const refused = await wes(['jobs', 'download', id, out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--clobber');
    expect(refused.stderr).toContain('--skip-existing');
    expect(lstatSync(join(out, output.name)).isSymbolicLink()).toBe(true);
    const replaced = await wes(['jobs', 'download', id, out, '--clobber']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expectUntouched(victim);
    expect(lstatSync(join(out, output.name)).isFile()).toBe(true);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
  });

  it('a link at the final name is never followed to hash its target, even when the target holds the same bytes', async () => {
    const { id, output } = await finishedJob();
    const { out } = scene();
    const first = await wes(['jobs', 'download', id, join(out, 'real')]);
    expect(first.code, first.stderr).toBe(0);
    const linked = join(out, 'linked');
    mkdirSync(linked);
    plant(join(linked, output.name), join(out, 'real', output.name));
    const res = await wes(['jobs', 'download', id, linked]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('symbolic link');
  });

  it('assets download: a link at NAME.part is set aside', async () => {
    const { output } = await finishedJob();
    const { out, victim } = scene();
    const target = join(out, 'asset.bin');
    plant(`${target}.part`, victim);
    const res = await wes(['assets', 'download', output.id, target]);
    expect(res.code, res.stderr).toBe(0);
    expectUntouched(victim);
    expect(await blake3File(target)).toBe(output.hash);
  });

  it('models run -o: links at the old temp name and at the target are never written through', async () => {
    const { out, victim } = scene();
    const target = join(out, 'answer.json');
    plant(`${target}.part`, victim);
    const ok = await wes(['models', 'run', 'dev/echo', '-d', '{"message":"hi"}', '-o', target]);
    expect(ok.code, ok.stderr).toBe(0);
    expectUntouched(victim);
    const linkedTarget = join(out, 'linked.json');
    plant(linkedTarget, victim);
    const refused = await wes(['models', 'run', 'dev/echo', '-d', '{"message":"hi"}', '-o', linkedTarget]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--clobber');
    const clobbered = await wes(['models', 'run', 'dev/echo', '-d', '{"message":"hi"}', '-o', linkedTarget, '--clobber']);
    expect(clobbered.code, clobbered.stderr).toBe(0);
    expectUntouched(victim);
    expect(lstatSync(linkedTarget).isFile()).toBe(true);
  });

  it('models run --download: a link at a linked file\'s .part is set aside', async () => {
    const { out, victim } = scene();
    // dev/image names its files image-<seed>-<i>.png.
    plant(join(out, 'image-5-0.png.part'), victim);
    const res = await wes(['models', 'run', 'dev/image', '-i', 'prompt=a fox', '-i', 'seed=5', '-i', 'width=64', '-i', 'height=64', '--download', out]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('moved it to');
    expectUntouched(victim);
    expect(lstatSync(join(out, 'image-5-0.png')).isFile()).toBe(true);
  });

  it('legacy view -o and legacy prompt --previews/--download: links at .part names are set aside', async () => {
    const id = await submit(ctx.server, sampleWorkflow(2, 'planted'));
    await waitForStatus(ctx.server, id, ['success']);
    const output = ctx.server.state.engine.get(id)!.outputs[0]!;
    const { out, victim } = scene();
    const target = join(out, 'viewed.png');
    plant(`${target}.part`, victim);
    const viewed = await wes(['legacy', 'view', output.name, '-o', target]);
    expect(viewed.code, viewed.stderr).toBe(0);
    expectUntouched(victim);
    expect(lstatSync(target).isFile()).toBe(true);

    const previews = join(out, 'previews');
    const downloads = join(out, 'downloads');
    mkdirSync(previews);
    mkdirSync(downloads);
    for (let i = 1; i <= 3; i++) plant(join(previews, `node-2-000${i}.png.part`), victim);
    for (let i = 1; i <= 3; i++) plant(join(downloads, `planted2_0000${i}_.png.part`), victim);
    const flow = writeTemp(out, sampleWorkflow(3, 'planted2'));
    const prompted = await wes(['legacy', 'prompt', flow, '--previews', previews, '--download', downloads]);
    expect(prompted.code, prompted.stderr).toBe(0);
    expectUntouched(victim);
    expect(readdirSync(previews).filter((f) => f.endsWith('.png'))).not.toEqual([]);
    expect(readdirSync(downloads).filter((f) => f.endsWith('.png'))).not.toEqual([]);
  });

  it('batch --results: a link at the results file is replaced, its target untouched', async () => {
    const { out, victim } = scene();
    const results = join(out, 'results.jsonl');
    plant(results, victim);
    const batch = writeTemp(out, `${JSON.stringify(bytesWorkflow(10))}\n`, 'jsonl');
    const res = await wes(['jobs', 'submit', '--batch', batch, '--results', results]);
    expect(res.code, res.stderr).toBe(0);
    expectUntouched(victim);
    expect(lstatSync(results).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(results, 'utf8').trim()).status).toBe('succeeded');
  });

  it('the profile file and the schema cache: links there are replaced, their targets untouched', async () => {
    const { out: cfg, victim } = scene();
    writeFileSync(victim, '{}');
    plant(join(cfg, 'config.json'), victim);
    const set = await wes(['config', 'set', 'deployment', 'abc'], { configDir: cfg });
    expect(set.code, set.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('{}');
    expect(lstatSync(join(cfg, 'config.json')).isFile()).toBe(true);

    const schemas = join(cfg, 'cache', 'default', 'schemas', 'dev');
    mkdirSync(schemas, { recursive: true });
    plant(join(schemas, 'echo.json'), victim);
    const schema = await wes(['models', 'schema', 'dev/echo'], { configDir: cfg });
    expect(schema.code, schema.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('{}');
    expect(lstatSync(join(schemas, 'echo.json')).isFile()).toBe(true);
  });
});
