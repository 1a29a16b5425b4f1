// The options of `wes legacy` are parsed and checked against each other before anything is sent:
// a malformed value, a value outside the choices, two flags that contradict each other, or a flag
// without the one it needs is a usage error (exit 2) that names the flags, and the dev-server
// counts no request. Well-formed values arrive typed (each verb of src/commands/legacy declares its own).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDevServer } from '../helpers/dev-server.js';
import { totalRequests } from './models-env.js';
import { wes } from './legacy-kit.js';

const dev = useDevServer();
let dir: string;
let image: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wes-legacy-options-'));
  image = join(dir, 'cat.png');
  writeFileSync(image, 'not really a png');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `args`; expects exit 2 with `message` on stderr and no request to the server. */
async function refused(args: string[], message: RegExp): Promise<void> {
  const before = totalRequests(dev.server);
  const res = await wes(dev.server, args);
  expect(res.code, res.stderr).toBe(2);
  expect(res.stderr).toMatch(message);
  expect(res.stderr).not.toMatch(/deprecated cloud API v1/);
  expect(totalRequests(dev.server)).toBe(before);
}

describe('wes legacy: usage errors before any request', () => {
  it('upload: --type outside its choices, --mask and --original apart, --overwrite with --mask, a malformed FILE_REF', async () => {
    await refused(['legacy', 'upload', image, '--type', 'output'], /--type <type>.*'output' is invalid.*input, temp/);
    await refused(['legacy', 'upload', image, '--mask'], /--mask needs --original FILE_REF/);
    await refused(['legacy', 'upload', image, '--original', 'cat.png'], /--original only applies with --mask/);
    await refused(['legacy', 'upload', image, '--mask', '--original', 'cat.png', '--overwrite'], /'--overwrite' cannot be used with option '--mask'/);
    await refused(['legacy', 'upload', image, '--mask', '--original', '{"subfolder":""'], /--original <file_ref>.*not valid JSON/);
    await refused(['legacy', 'upload', image, '--mask', '--original', '{"subfolder":""}'], /non-empty "filename"/);
  });

  it('status: --interval needs --wait, and a positive number of seconds', async () => {
    await refused(['legacy', 'status', 'p-1', '--interval', '2'], /--interval only applies with --wait/);
    for (const bad of ['abc', '0', '-1']) await refused(['legacy', 'status', 'p-1', '--wait', '--interval', bad], /--interval <seconds>.*is invalid.*number of seconds from 0.05 to 3600, e.g. --interval 2/);
  });

  it('watch: --clobber and --skip-existing contradict each other, and mean something only with --previews', async () => {
    await refused(['legacy', 'watch', 'p-1', '--previews', join(dir, 'p'), '--clobber', '--skip-existing'], /'--skip-existing' cannot be used with option '--clobber'/);
    await refused(['legacy', 'watch', 'p-1', '--clobber'], /--clobber only applies with --previews/);
    await refused(['legacy', 'watch', 'p-1', '--skip-existing'], /--skip-existing only applies with --previews/);
    await refused(['legacy', 'watch', 'p-1', '--interval', 'soon'], /--interval <seconds>.*'soon' is invalid/);
    await refused(['legacy', 'watch', 'p-1', '--previews', ''], /--previews <dir>.*must not be empty/);
  });

  it('view: --type outside its choices, an empty -o, --clobber with --skip-existing, a file flag with -o -', async () => {
    await refused(['legacy', 'view', 'a.png', '--type', 'preview'], /--type <type>.*'preview' is invalid.*output, temp, input/);
    await refused(['legacy', 'view', 'a.png', '-o', ''], /--output <file>.*must not be empty/);
    await refused(['legacy', 'view', 'a.png', '-o', join(dir, 'a.png'), '--clobber', '--skip-existing'], /cannot be used with/);
    await refused(['legacy', 'view', 'a.png', '-o', '-', '--skip-existing'], /--skip-existing decides about an existing file; -o - writes to standard output/);
  });

  it('prompt: a malformed --interval is refused before the workflow is read or sent', async () => {
    await refused(['legacy', 'prompt', join(dir, 'missing.json'), '--wait', '--interval', 'x'], /--interval <seconds>.*'x' is invalid/);
  });

  it('prompt: flags of a mode not chosen (polling, saving files, converting) are refused, not ignored', async () => {
    const flow = join(dir, 'flow.json');
    writeFileSync(flow, '{}');
    await refused(['legacy', 'prompt', flow, '--interval', '2'], /--interval only applies with --wait or --ws or --previews or --download/);
    await refused(['legacy', 'prompt', flow, '--wait', '--clobber'], /--clobber only applies with --download or --previews/);
    await refused(['legacy', 'prompt', flow, '--skip-existing'], /--skip-existing only applies with --download or --previews/);
    await refused(['legacy', 'prompt', flow, '--download', join(dir, 'out'), '--clobber', '--skip-existing'], /'--skip-existing' cannot be used with option '--clobber'/);
    await refused(['legacy', 'prompt', flow, '--refresh'], /--refresh only applies with --convert/);
    await refused(['legacy', 'prompt', flow, '--object-info', join(dir, 'info.json')], /--object-info only applies with --convert/);
    await refused(['legacy', 'prompt', flow, '--convert', '--refresh', '--object-info', join(dir, 'info.json')], /cannot be used with/);
    await refused(['legacy', 'prompt', flow, '--download', ''], /--download <dir>.*must not be empty/);
  });
});

describe('wes legacy: well-formed options reach the verb typed', () => {
  it('upload --type temp and a mask with a JSON FILE_REF are sent as given', async () => {
    const temp = await wes(dev.server, ['legacy', 'upload', image, '--type', 'temp', '--json']);
    expect(temp.code, temp.stderr).toBe(0);
    expect(JSON.parse(temp.stdout)).toMatchObject({ name: 'cat.png', type: 'temp' });
    const mask = await wes(dev.server, ['legacy', 'upload', image, '--mask', '--original', '{"filename":"cat.png","subfolder":"","type":"temp"}', '--json']);
    expect(mask.code, mask.stderr).toBe(0);
    expect(JSON.parse(mask.stdout)).toMatchObject({ name: 'cat.png' });
  });

  it('view with the default --type and --subfolder asks for type=output in the root folder', async () => {
    const before = dev.server.state.requestCounts.get('GET /api/view') ?? 0;
    const res = await wes(dev.server, ['legacy', 'view', 'nothing-here.png', '-o', '-']);
    expect(res.code).toBe(5);
    expect(dev.server.state.requestCounts.get('GET /api/view') ?? 0).toBe(before + 1);
  });
});
