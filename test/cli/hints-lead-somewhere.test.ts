// Hints that lead somewhere (issue 29, item 14): none names the command that just failed, none
// points at what is not there, and a local mistake is said before anything is sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

let server: DevServerHandle;
let dir: string;
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
beforeAll(async () => {
  server = await startFast();
  dir = mkdtempSync(join(tmpdir(), 'wes-hints-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
const wes = (args: string[]) => runWes(args, { env: { WES_BASE_URL: server.url, WES_API_KEY: server.apiKey! } });
const posts = () => server.state.requestCounts.get('POST /api/v2/jobs') ?? 0;

describe('hints', () => {
  it('workflows convert of a JSON array does not hint `wes workflows convert`', async () => {
    const res = await wes(['workflows', 'convert', file('arr.json', '[1, 2]'), '--object-info', file('oi.json', '{}')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('not an API-format workflow');
    expect(res.stderr).not.toContain('wes workflows convert');
    expect(res.stderr).toContain('keyed by node id');
  });

  it('a class missing from a saved object_info does not point to --object-info FILE again', async () => {
    const fixtures = join(import.meta.dirname, '../fixtures/readme');
    const res = await wes(['workflows', 'convert', join(fixtures, 'broken.json'), '--object-info', join(fixtures, 'object_info.json')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown node class');
    expect(res.stderr).not.toContain('--object-info FILE');
    expect(res.stderr).toContain('save its object_info again');
  });

  it('an empty workflow is refused locally: nothing is sent', async () => {
    const before = posts();
    const res = await wes(['jobs', 'submit', file('empty.json', '{}')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('holds no nodes');
    expect(posts()).toBe(before);
  });

  it('--set "=5" says what is missing: the node and input, not the "="', async () => {
    const res = await wes(['jobs', 'submit', file('one.json', '{"1": {"class_type": "EmptyImage", "inputs": {}}}'), '--set', '=5']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('nothing before "="');
    expect(res.stderr).not.toContain('missing "="');
  });

  it('a JSON lines file submitted without --batch names --batch', async () => {
    const line = '{"1": {"class_type": "EmptyImage", "inputs": {"width": 8, "height": 8, "batch_size": 1, "color": 1}}}';
    const jobs = file('jobs.jsonl', `${line}\n${line}\n`);
    const res = await wes(['jobs', 'submit', jobs]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`wes jobs submit --batch ${jobs}`);
  });
});
