// wes workflows list --remote / pull / push / rm / mv against the dev-server's imitation of
// ComfyUI 0.3.18 and 0.3.64 (user-data routes as recorded) and of the cloud API v1 (as published):
// a UI-format workflow pushed, listed, pulled back byte for byte, moved and removed; names with
// spaces and non-ASCII letters; names that would leave the folder refused before any request;
// an existing workflow never replaced without --overwrite; a name that is not saved never asked
// for (an engine would create its folder).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { startFast, requestCounts } from '../helpers/dev-server.js';
import { fixture } from '../helpers/comfyui-fixtures.js';
import { tempConfigDir } from '../helpers/cli.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

const UI_A: string = fixture<{ ui_workflows: Record<string, string> }>('userdata.json').ui_workflows.UI_A!;

const SERVERS: Array<[string, DevServerOptions]> = [
  ['ComfyUI 0.3.18', { deployment: 'self-hosted', engineOnly: true, engineVersion: '0.3.18' }],
  ['ComfyUI 0.3.64', { deployment: 'self-hosted', engineOnly: true, engineVersion: '0.3.64' }],
  ['the cloud API v1', { deployment: 'cloud' }],
];

for (const [label, options] of SERVERS) {
  describe(`saved workflows on ${label}`, () => {
    const dir = useTempDir();
    let server: DevServerHandle;
    let config: ReturnType<typeof tempConfigDir>;
    beforeAll(async () => {
      server = await startFast(options);
      config = tempConfigDir();
    });
    afterAll(async () => {
      config.cleanup();
      await server.close();
    });
    const run = wesAgainst(() => server);
    const wes = (args: string[], input?: string) => run(args, { configDir: config.dir, input });

    it('push, list, pull back byte for byte, mv, rm: names with spaces and non-ASCII letters', async () => {
      const local = join(dir(), 'mon café 日本.json');
      writeFileSync(local, UI_A);
      const pushed = await wes(['workflows', 'push', local]);
      expect([pushed.code, pushed.stdout.trim()], pushed.stderr).toEqual([0, 'mon café 日本.json']);
      const again = await wes(['workflows', 'push', local]);
      expect(again.code, again.stderr).toBe(6);
      expect(again.stderr).toMatch(/already exists[^]*--overwrite/);
      expect((await wes(['workflows', 'push', local, '--overwrite'])).code).toBe(0);
      expect((await wes(['workflows', 'push', local, '--name', 'sub dir/older'])).code).toBe(0);

      const listed = await wes(['workflows', 'list', '--remote', '--json']);
      const entries = JSON.parse(listed.stdout) as Array<{ name: string; size: number; modified: string }>;
      expect(entries.map((e) => e.name).sort()).toEqual(['mon café 日本.json', 'sub dir/older.json']);
      expect(entries.every((e) => e.size === Buffer.byteLength(UI_A) && !Number.isNaN(Date.parse(e.modified)))).toBe(true);
      expect(entries[0]!.name).toBe('sub dir/older.json'); // newest first
      const table = await wes(['workflows', 'list', '--remote']);
      expect(table.stdout).toMatch(/^mon café 日本\.json\t914 B\t\d{4}-/m);

      const pulled = await wes(['workflows', 'pull', 'mon café 日本', '-o', join(dir(), 'back.json')]);
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(readFileSync(join(dir(), 'back.json'), 'utf8')).toBe(UI_A);
      // By default the file is the name's last part, in the current folder (the built binary, run there).
      const byName = await run(['workflows', 'pull', 'sub dir/older.json'], { configDir: config.dir, cwd: dir() });
      expect([byName.code, byName.stdout.trim()], byName.stderr).toEqual([0, 'older.json']);
      expect(readFileSync(join(dir(), 'older.json'), 'utf8')).toBe(UI_A);
      expect((await wes(['workflows', 'pull', 'sub dir/older.json', '-o', '-'])).stdout).toBe(UI_A);

      const moved = await wes(['workflows', 'mv', 'mon café 日本', 'sub dir/older']);
      expect(moved.code, moved.stderr).toBe(6);
      expect((await wes(['workflows', 'mv', 'mon café 日本', 'renamed/é'])).code).toBe(0);
      const after = JSON.parse((await wes(['workflows', 'list', '--remote', '--json'])).stdout) as Array<{ name: string }>;
      expect(after.map((e) => e.name).sort()).toEqual(['renamed/é.json', 'sub dir/older.json']);
      expect((await wes(['workflows', 'pull', 'renamed/é', '-o', '-'])).stdout).toBe(UI_A);

      expect((await wes(['workflows', 'rm', 'renamed/é'])).code).toBe(0);
      const gone = await wes(['workflows', 'rm', 'renamed/é']);
      expect(gone.code).toBe(5);
      expect(gone.stderr).toMatch(/no saved workflow "renamed\/é\.json"/);
    });

    it('a name that is not saved is looked up in the listing and never asked for', async () => {
      const before = await requestCounts(server);
      const missing = await wes(['workflows', 'pull', 'ghost folder/nope']);
      expect(missing.code).toBe(5);
      const counts = await requestCounts(server);
      const gets = Object.keys(counts).filter((k) => k.startsWith('GET /api/userdata/') && (counts[k] ?? 0) > (before[k] ?? 0));
      expect(gets).toEqual([]);
      const listing = JSON.parse((await wes(['workflows', 'list', '--remote', '--json'])).stdout) as Array<{ name: string }>;
      expect(listing.some((e) => e.name.startsWith('ghost folder'))).toBe(false);
    });

    it('names out of the folder, or that the engine would decode again, are refused before any request', async () => {
      const local = join(dir(), 'a.json');
      writeFileSync(local, UI_A);
      for (const name of ['../escape', '/etc/passwd', 'a/../../b', 'x\\y', '50%41', 'a//b']) {
        const res = await wes(['workflows', 'push', local, '--name', name]);
        expect(res.code, name).toBe(2);
        expect(res.stderr, name).toMatch(/is not a usable workflow name/);
      }
      expect((await wes(['workflows', 'pull', '..'])).code).toBe(2);
      expect((await wes(['workflows', 'mv', 'a', '../b'])).code).toBe(2);
    });

    it('templates: the server\'s index (none here), and a template it does not offer is exit 5', async () => {
      const listed = await wes(['workflows', 'templates', '--json']);
      expect([listed.code, JSON.parse(listed.stdout)], listed.stderr).toEqual([0, {}]);
      expect((await wes(['workflows', 'templates'])).stderr).toMatch(/offers no workflow templates/);
      const missing = await wes(['workflows', 'pull', '--template', 'some-pack/example']);
      expect(missing.code).toBe(5);
      expect(missing.stderr).toMatch(/no template some-pack\/example/);
      for (const bad of ['nopack', '../x', 'a/../b', 'a/']) expect((await wes(['workflows', 'pull', '--template', bad])).code, bad).toBe(2);
      expect((await wes(['workflows', 'pull', 'x', '--template', 'a/b'])).code).toBe(2);
    });

    it('an API-format file is saved and said; a file that is no workflow is refused', async () => {
      const api = join(dir(), 'api.json');
      writeFileSync(api, JSON.stringify({ '1': { class_type: 'EmptyImage', inputs: {} } }));
      const res = await wes(['workflows', 'push', api]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/in API format/);
      const junk = join(dir(), 'junk.json');
      writeFileSync(junk, '[1, 2]');
      expect((await wes(['workflows', 'push', junk])).code).toBe(2);
      const stdin = await wes(['workflows', 'push', '-', '--name', 'from stdin'], UI_A);
      expect(stdin.code, stdin.stderr).toBe(0);
      expect((await wes(['workflows', 'pull', 'from stdin', '-o', '-'])).stdout).toBe(UI_A);
    });
  });
}

describe('workflows list without --remote', () => {
  it('says that wes keeps no workflows of its own (exit 2)', async () => {
    const res = await wesAgainst(() => ({ url: 'http://127.0.0.1:9', apiKey: undefined }) as unknown as DevServerHandle)(['workflows', 'list']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--remote/);
  });
});
