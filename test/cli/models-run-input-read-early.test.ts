// `models run --input FILE` reads the file while the output targets are checked; what goes wrong
// is still told in the old order: a target's problem before the input's, and a run that
// --skip-existing skips never complains about its input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDevServer } from '../helpers/dev-server.js';
import { seen, wesAgainst } from './models-env.js';

const holder = useDevServer({});
const wes = wesAgainst(() => holder.server);
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wes-models-early-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('models run --input read early', () => {
  it('an existing -o file is the error told (exit 1) even when the input is missing too', async () => {
    const out = join(work, 'taken.json');
    writeFileSync(out, 'mine');
    const r = await wes(['models', 'run', 'dev/echo', '--input', join(work, 'missing.json'), '-o', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('already exists');
    expect(r.stderr).not.toContain('cannot read');
  });

  it('--skip-existing keeps the file and runs nothing, whatever the input', async () => {
    const out = join(work, 'kept.json');
    writeFileSync(out, 'mine');
    const before = seen(holder.server, 'POST /v1/models/dev/echo');
    const r = await wes(['models', 'run', 'dev/echo', '--input', join(work, 'missing.json'), '-o', out, '--skip-existing']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('kept the existing');
    expect(seen(holder.server, 'POST /v1/models/dev/echo')).toBe(before);
  });

  it('an unreadable input with a free target is still exit 2, naming the file, and nothing is sent', async () => {
    const before = seen(holder.server, 'POST /v1/models/dev/echo');
    const missing = join(work, 'missing.json');
    const r = await wes(['models', 'run', 'dev/echo', '--input', missing, '-o', join(work, 'free.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--input ${missing}: cannot read the file`);
    expect(seen(holder.server, 'POST /v1/models/dev/echo')).toBe(before);
  });
});
