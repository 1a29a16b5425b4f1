// Output names chosen by the server never leave the target folder and never overwrite each other:
// names with '/', '\', '..', NUL, reserved device names, 300-byte names and unicode look-alikes,
// from the engine (SaveImage's filename_prefix is used unsanitized) and from a purpose-built
// service for names the engine cannot make. Every saved file holds its own output's bytes.
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imageWorkflow, submitJob, waitForJob, type Json } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from '../cli/jobs-env.js';
import { filesUnder, useFaultServer, wesAt } from '../faults/kit.js';
import { startFakeService, type FakeService } from './fake-service.js';

const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

interface Saved {
  name: string;
  path: string;
  bytes: number;
  asset_id: string;
}

/** Everything under `parent` is a direct child of `parent/dir`, unique, and a sane file name. */
function expectContained(parent: string, dir: string, saved: Saved[], outputs: number): string[] {
  const files = filesUnder(parent);
  expect(files.every((f) => f.startsWith(`${dir}${sep}`) && !f.slice(dir.length + 1).includes(sep)), files.join('\n')).toBe(true);
  const names = files.map((f) => f.slice(dir.length + 1));
  expect(names).toContain('job.json');
  expect(names).toHaveLength(outputs + 1);
  expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
  for (const name of names) {
    expect(Buffer.byteLength(name), name).toBeLessThanOrEqual(255);
    expect(name, name).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069<>:"|?*\\/]/);
    expect(name, name).not.toMatch(/^\.|[. ]$/);
    expect(RESERVED.test(name), name).toBe(false);
    expect(name.endsWith('.part'), name).toBe(false);
  }
  expect(saved).toHaveLength(outputs);
  for (const s of saved) expect(s.path.startsWith(join(parent, dir) + sep)).toBe(true);
  return names;
}

describe('hostile output names from the engine', () => {
  const fx = useFaultServer({ stepMs: 1 });
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();
  const PREFIXES = ['../../escape', '/etc/abs', 'a\\b\\..\\..\\win', 'nul\u0000byte', 'x'.repeat(300), 'y'.repeat(298), '\uff0e\uff0e\uff0fwide', '\u2215lookalike\u2215', 'twin', 'twin', 'Case', 'CASE', '\u202egnp.exe'];

  it('every file lands inside DIR under a unique safe name, holding its own bytes', async () => {
    const workflow: Json = { '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: 0 } } };
    PREFIXES.forEach((prefix, i) => {
      workflow[String(i + 10)] = { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: prefix } };
    });
    const id = (await submitJob(fx.server, workflow)).body.id as string;
    const job = await waitForJob(fx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    expect(job.outputs).toHaveLength(PREFIXES.length);
    const parent = join(dir(), 'engine');
    const res = await wes(['jobs', 'download', id, join(parent, 'out'), '--json'], { timeoutMs: 20_000 });
    expect(res.code, res.stderr).toBe(0);
    const saved = JSON.parse(res.stdout) as Saved[];
    expectContained(parent, 'out', saved, PREFIXES.length);
    for (const s of saved) {
      const output = job.outputs.find((o: Json) => o.id === s.asset_id);
      expect(readFileSync(s.path).length).toBe(output.size_bytes);
    }
  });

  it('a single hostile name saved into the default folder stays there too', async () => {
    const id = (await submitJob(fx.server, imageWorkflow({ prefix: '../../../../tmp/owned', steps: 1 }))).body.id as string;
    await waitForJob(fx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const res = await wes(['jobs', 'download', id], { cwd: dir() });
    expect(res.code, res.stderr).toBe(0);
    const files = filesUnder(join(dir(), id));
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^_+tmp_owned_00001_\.png$/);
    expect(files[1]).toBe('job.json');
  });
});

describe('hostile output names only a purpose-built service sends', () => {
  let fake: FakeService;
  afterAll(() => fake?.close());
  const dir = useTempDir();
  const NAMES = [
    '', '.', '..', '...', ' ', 'CON', 'nul.txt', 'LPT1', 'com1.png', 'aux.tar.gz', '/etc/passwd', 'C:\\Windows\\system32\\x.dll',
    '\\\\server\\share\\y', 'job.json', 'JOB.JSON', 'a.part', 'a.part', 'x'.repeat(300), 'x'.repeat(300), `${'é'.repeat(150)}.png`,
    `${'é'.repeat(150)}.png`, '\u202egnp.exe', 'a\u0000b', 'trailing. ', '\u2215etc\u2215lookalike', '\uff0e\uff0e\uff0f\uff0e\uff0e\uff0fwide',
    'ＣＯＮ', 'out.png', 'OUT.png', 'out (1).png', `${'z'.repeat(196)}.png`, `${'z'.repeat(196)}.png`,
  ];

  it('all of them: inside DIR, unique (case-insensitively), no reserved or hidden names, exact bytes', async () => {
    fake = await startFakeService({ outputs: NAMES.map((name, i) => ({ name, body: Buffer.from(`output ${i}: ${JSON.stringify(name)}`) })) });
    const parent = join(dir(), 'fake');
    const res = await wesAt(fake.url, ['jobs', 'download', fake.jobId, join(parent, 'out'), '--json'], { timeoutMs: 20_000 });
    expect(res.code, res.stderr).toBe(0);
    const saved = JSON.parse(res.stdout) as Saved[];
    expectContained(parent, 'out', saved, NAMES.length);
    for (const s of saved) {
      const index = Number(s.asset_id.replace('out-', ''));
      expect(readFileSync(s.path, 'utf8')).toBe(`output ${index}: ${JSON.stringify(NAMES[index])}`);
    }
    expect(JSON.parse(readFileSync(join(parent, 'out', 'job.json'), 'utf8')).id).toBe(fake.jobId);
  });
});
