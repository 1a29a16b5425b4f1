// `wes models run` reads its options once, typed (src/commands/models/options.ts): a malformed -d,
// a -i without KEY=, an empty or control-character --idempotency-key, an empty file name, or a
// file flag with no file to save is a usage error (exit 2) naming the flag, and the router counts
// no request, not even the schema read that -i pairs need. Well-formed values arrive as given.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from 'commander';
import { jsonObjectText } from '../../src/commands/models/options.js';
import { idempotencyKey } from '../../src/commands/option-values.js';
import { useDevServer } from '../helpers/dev-server.js';
import { seen, totalRequests, wesAgainst } from './models-env.js';

const dev = useDevServer();
const wes = wesAgainst(() => dev.server);
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wes-models-run-options-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function refused(args: string[], message: RegExp): Promise<void> {
  const before = totalRequests(dev.server);
  const res = await wes(['models', 'run', 'dev/echo', ...args]);
  expect(res.code, res.stderr).toBe(2);
  expect(res.stderr).toMatch(message);
  expect(totalRequests(dev.server)).toBe(before);
}

describe('models run option parsers', () => {
  it('-d keeps the text as typed when it is a JSON object, and says what is wrong otherwise', () => {
    expect(jsonObjectText('{ "b":2, "a":1 }')).toBe('{ "b":2, "a":1 }');
    expect(() => jsonObjectText('{"a":')).toThrow(/not valid JSON/);
    expect(() => jsonObjectText('[1]')).toThrow(/must be a JSON object.*an array/);
    expect(() => jsonObjectText('null')).toThrow(/got null/);
    expect(() => jsonObjectText('"x"')).toThrow(/got string/);
  });

  it('an idempotency key is 1-255 printable ASCII characters, as published', () => {
    expect(idempotencyKey('job-42 ~!')).toBe('job-42 ~!');
    expect(idempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
    for (const bad of ['', '  ', 'a\nb', 'a\rb', 'a\u0000', 'job-42 é', 'k'.repeat(256), 'a\u007f']) expect(() => idempotencyKey(bad), JSON.stringify(bad)).toThrow(InvalidArgumentError);
  });
});

describe('models run: usage errors before any request', () => {
  it('a malformed -d or -i, naming the flag', async () => {
    await refused(['-d', '{"prompt":'], /-d, --data <json>.*not valid JSON/);
    await refused(['-d', '["a"]'], /-d, --data <json>.*must be a JSON object/);
    await refused(['-i', 'prompt'], /-i, --param <key=value>.*'prompt' is invalid.*KEY=VALUE/);
    await refused(['-i', 'width=64', '-i', '=5'], /'=5' is invalid.*KEY=VALUE/);
  });

  it('an empty or control-character --idempotency-key, an empty -o, --input or --download', async () => {
    await refused(['-d', '{}', '--idempotency-key', ''], /--idempotency-key <key>.*1-255 printable ASCII.*is empty/);
    await refused(['-d', '{}', '--idempotency-key', 'a\nb'], /--idempotency-key <key>.*control characters/);
    await refused(['-d', '{}', '--idempotency-key', 'k'.repeat(256)], /--idempotency-key <key>.*1-255 printable ASCII.*has 256/);
    await refused(['-d', '{}', '--idempotency-key', 'clé'], /--idempotency-key <key>.*printable ASCII/);
    await refused(['-d', '{}', '-o', ''], /--output <file>.*must not be empty/);
    await refused(['--input', ''], /--input <file>.*must not be empty/);
    await refused(['-d', '{}', '--download', ' '], /--download <dir>.*must not be empty/);
  });

  it('--clobber and --skip-existing: not together, and only with -o or --download', async () => {
    await refused(['-d', '{}', '-o', join(work, 'x.json'), '--clobber', '--skip-existing'], /'--skip-existing' cannot be used with option '--clobber'/);
    await refused(['-d', '{}', '--clobber'], /--clobber only applies with --output or --download/);
    await refused(['-d', '{}', '--skip-existing'], /--skip-existing only applies with --output or --download/);
  });
});

describe('models run: well-formed options reach the run typed', () => {
  it('--input and -d merge, repeated -i pairs are typed by the schema, and --idempotency-key is sent', async () => {
    const base = join(work, 'base.json');
    writeFileSync(base, '{"a":1,"b":"from file"}');
    const before = seen(dev.server, 'POST /v1/models/dev/echo');
    const r = await wes(['models', 'run', 'dev/echo', '--input', base, '-d', '{"b":"inline"}', '-i', 'c=3', '-i', 'd=x', '--idempotency-key', 'run-options-1']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ a: 1, b: 'inline', c: 3, d: 'x' });
    expect(seen(dev.server, 'POST /v1/models/dev/echo')).toBe(before + 1);
    // The router kept the key: the same key with another body is refused as a reuse.
    const reused = await wes(['models', 'run', 'dev/echo', '-d', '{"other":true}', '--idempotency-key', 'run-options-1']);
    expect(reused.code).toBe(6);
    expect(reused.stderr).toMatch(/idempotency_key_reuse|already used/);
  });

  it('--skip-existing with -o keeps the file and runs nothing; --clobber replaces it', async () => {
    const out = join(work, 'kept.json');
    writeFileSync(out, 'mine');
    const before = totalRequests(dev.server);
    const kept = await wes(['models', 'run', 'dev/echo', '-d', '{"k":1}', '-o', out, '--skip-existing']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('mine');
    expect(totalRequests(dev.server)).toBe(before);
    const replaced = await wes(['models', 'run', 'dev/echo', '-d', '{"k":1}', '-o', out, '--clobber']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('{"k":1}');
  });
});

describe('models run -o -', () => {
  it('writes the output to standard output, as -o - does everywhere, not to a file named -', async () => {
    const res = await wes(['models', 'run', 'dev/echo', '-d', '{"text":"to stdout"}', '-o', '-']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('to stdout');
    expect(existsSync(join(process.cwd(), '-'))).toBe(false);
  });

  it('--clobber or --skip-existing with -o - is a usage error: there is no file for them', async () => {
    await refused(['-d', '{"text":"x"}', '-o', '-', '--clobber'], /--clobber decides about an existing file; -o - writes to standard output/);
  });
});
