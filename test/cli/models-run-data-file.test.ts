// `models run -d @FILE` (as curl reads a body from a file): the file's bytes are checked (as a JSON
// object, and against a cached schema) and sent unchanged; a file that fails a check sends nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { seen, totalRequests, wesAgainst } from './models-env.js';

const holder = useDevServer({ catalogSize: 20 });
const wes = wesAgainst(() => holder.server);
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wes-models-data-file-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A JSON object of about `bytes` bytes, pretty-printed, with escapes, unicode and numbers of every form. */
function bigBody(bytes: number, message: unknown = 'a large body'): string {
  const items: string[] = [];
  for (let length = 0; length < bytes; ) {
    const item = `    {"n": ${items.length}, "x": -${items.length}.25e-3, "text": "step ${items.length} — größer \\u00e9 \\"q\\" \\\\ 😀", "ok": ${items.length % 2 === 0}, "none": null}`;
    items.push(item);
    length += item.length + 2;
  }
  return `{\n  "message": ${JSON.stringify(message)},\n  "items": [\n${items.join(',\n')}\n  ]\n}\n`;
}

function write(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

describe('models run -d @FILE', () => {
  it('sends a 3 MB file byte for byte, as --input does', async () => {
    const body = bigBody(3_000_000);
    const file = write('big.json', body);
    const before = seen(holder.server, 'POST /v1/models/dev/echo');
    const r = await wes(['models', 'run', 'dev/echo', '-d', `@${file}`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdoutBytes.equals(Buffer.from(body))).toBe(true);
    expect(seen(holder.server, 'POST /v1/models/dev/echo') - before).toBe(1);
  });

  it('checks a large file against the cached schema: a valid one is sent unchanged, an invalid one not at all', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      expect((await wes(['models', 'schema', 'dev/echo'], { configDir: dir })).code).toBe(0);
      const good = bigBody(2_000_000);
      const ok = await wes(['models', 'run', 'dev/echo', '-d', `@${write('good.json', good)}`], { configDir: dir });
      expect(ok.code).toBe(0);
      expect(ok.stdoutBytes.equals(Buffer.from(good))).toBe(true);

      const before = seen(holder.server, 'POST /v1/models/dev/echo');
      const bad = await wes(['models', 'run', 'dev/echo', '-d', `@${write('bad.json', bigBody(2_000_000, 42))}`], { configDir: dir });
      expect(bad.code).toBe(6);
      expect(bad.stderr).toContain('does not match the schema of dev/echo');
      expect(bad.stderr).toMatch(/message\s+Input should be a valid string/);
      expect(bad.stdout).toBe('');
      expect(seen(holder.server, 'POST /v1/models/dev/echo')).toBe(before); // the schema was revalidated, the input not sent
    } finally {
      cleanup();
    }
  });

  it('refuses a file that is not one JSON object with exit 2, naming the file, and sends nothing', async () => {
    const body = bigBody(1_000_000);
    const broken = write('broken.json', body.slice(0, 500_000)); // cut short
    const overflow = write('overflow.json', body.replace('"n": 7,', '"n": 7e400,'));
    const before = totalRequests(holder.server);
    const r = await wes(['models', 'run', 'dev/echo', '-d', `@${broken}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*broken\.json:\d+:\d+: not valid JSON: /m);
    const big = await wes(['models', 'run', 'dev/echo', '-d', `@${overflow}`]);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('7e400 is too large for JSON');
    const missing = await wes(['models', 'run', 'dev/echo', '-d', `@${join(work, 'missing.json')}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`-d @${join(work, 'missing.json')}: cannot read the file: no such file`);
    expect(totalRequests(holder.server)).toBe(before);
  });

  it('reads standard input with -d @-, but not twice', async () => {
    const piped = await wes(['models', 'run', 'dev/echo', '-d', '@-'], { input: '{ "from": "stdin" }' });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('{ "from": "stdin" }');
    const twice = await wes(['models', 'run', 'dev/echo', '--input', '-', '-d', '@-'], { input: '{}' });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--input - and -d @- both read standard input');
    const bare = await wes(['models', 'run', 'dev/echo', '-d', '@']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('@ must be followed by a file name');
  });

  it('merges -d @FILE over --input like inline -d', async () => {
    const base = write('base.json', '{"message":"from --input","keep":1}');
    const over = write('over.json', '{"message":"from -d @file"}');
    const r = await wes(['models', 'run', 'dev/echo', '--input', base, '-d', `@${over}`]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ message: 'from -d @file', keep: 1 });
  });
});
