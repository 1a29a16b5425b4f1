// `wes models run -o FILE` writes the output into the file as it arrives: the file holds the
// router's bytes exactly, appears whole under its name only at the end, and a run that is refused
// leaves neither the file nor a temp file; exit codes are as before.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDevServer } from '../helpers/dev-server.js';
import { seen, wesAgainst } from './models-env.js';

const holder = useDevServer({ routerTokens: ['t-out-file'] });
const wes = wesAgainst(() => holder.server);
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wes-models-out-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A 3 MB JSON object with unicode and odd spacing, as a file. */
function inputFile(name: string): { path: string; bytes: Buffer } {
  const items = Array.from({ length: 30_000 }, (_, i) => `{"n":${i}, "t":"é ${'x'.repeat(60)} 😀"}`);
  const bytes = Buffer.from(`{ "message" : "out", "items":[${items.join(',')}] }`);
  const path = join(work, name);
  writeFileSync(path, bytes);
  return { path, bytes };
}

describe('models run -o FILE', () => {
  it('writes the echoed bytes exactly into a file under new folders, saying how many, with nothing on stdout', async () => {
    const input = inputFile('in-1.json');
    const out = join(work, 'new', 'folder', 'out.json');
    const r = await wes(['models', 'run', 'dev/echo', '--input', input.path, '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`wrote the output of dev/echo to ${out} (${input.bytes.length} bytes)`);
    expect(readFileSync(out).equals(input.bytes)).toBe(true);
    expect(readdirSync(join(work, 'new', 'folder'))).toEqual(['out.json']);
  });

  it('refuses an existing file (exit 1) without running, and replaces it with --clobber', async () => {
    const input = inputFile('in-2.json');
    const folder = join(work, 'existing');
    const out = join(folder, 'out.json');
    await wes(['models', 'run', 'dev/echo', '-d', '{"message":"first"}', '-o', out]);
    const before = seen(holder.server, 'POST /v1/models/dev/echo');
    const refused = await wes(['models', 'run', 'dev/echo', '--input', input.path, '-o', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already exists');
    expect(seen(holder.server, 'POST /v1/models/dev/echo')).toBe(before);
    expect(readFileSync(out, 'utf8')).toBe('{"message":"first"}');
    const replaced = await wes(['models', 'run', 'dev/echo', '--input', input.path, '-o', out, '--clobber']);
    expect(replaced.code).toBe(0);
    expect(readFileSync(out).equals(input.bytes)).toBe(true);
    expect(readdirSync(folder)).toEqual(['out.json']);
  });

  it('leaves nothing, not even the folder, when the router refuses the input (exit 6, as before)', async () => {
    const out = join(work, 'refused', 'out.json');
    const r = await wes(['models', 'run', 'dev/echo', '-d', '{"message":12}', '--no-validate', '-o', out]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('string_type');
    expect(readdirSync(work)).not.toContain('refused');
  });
});
