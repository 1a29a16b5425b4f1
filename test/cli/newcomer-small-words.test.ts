// Small words a newcomer tripped over (issue 38, item 8): `auth status` printed `jobs accepted
// 404` (the probe's expected answer, read as a failure), and a binary file given as a workflow
// said `found ""` (its first byte, a control character, printed as nothing).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';

describe('small words (issue 38, item 8)', () => {
  const dev = useDevServer();
  const dir = mkdtempSync(join(tmpdir(), 'wes-words-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = () => ({ WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! });

  it('auth status: an accepted family shows no status beside "accepted" (--json keeps it)', async () => {
    const res = await runWes(['auth', 'status'], { env: env() });
    expect(res.code, res.stderr).toBe(0);
    // The last table is the surfaces' verdicts (the one before it says where each credential goes).
    const jobs = res.stdout.split('\n').filter((l) => l.startsWith('jobs\t')).at(-1);
    expect(jobs).toBe('jobs\taccepted\t\tcredential accepted');
    const json = JSON.parse((await runWes(['auth', 'status', '--json'], { env: env() })).stdout);
    expect(json.surfaces.find((s: { family: string }) => s.family === 'jobs').status).toBe(404);
  });

  it('a binary file as a workflow: says what the first byte is, not `found ""`', async () => {
    const file = join(dir, 'program.bin');
    writeFileSync(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]));
    const res = await runWes(['jobs', 'submit', file], { env: env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('found the control character U+007F (the file looks binary, not text)');
    expect(res.stderr).not.toContain('found ""');
    const latin = join(dir, 'latin1.bin');
    writeFileSync(latin, Buffer.from([0xff, 0xfe, 0x00]));
    const bad = await runWes(['jobs', 'submit', latin], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/found (bytes that are not UTF-8 text|the control character)/);
  });
});
