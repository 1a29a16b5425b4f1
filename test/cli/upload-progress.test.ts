// Uploads tell a person how they go on a terminal (bytes, rate, time left), through the
// in-process CLI with stderr as a TTY against the dev-server: `assets upload`, the uploads that
// `jobs submit --set N.I=@FILE` makes, and `legacy upload`. Nothing with --quiet, --json or off a
// terminal, and stdout still carries only the command's data.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes, tempConfigDir, type TerminalStreams } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';

const dev = useDevServer();
let dir: string;
let config: { dir: string; cleanup: () => void };
const SIZE = 9 << 20;
const LINE = /uploading .*big-\d\.bin {2}\d+(\.\d)? (MiB|KiB) of 9\.0 MiB/;

/** A wide terminal: the line names the file by its path in the temp folder, as long as that folder's own path (under `npm test`, a folder in memory: scripts/test-env.mjs). */
function wes(argv: string[], tty: TerminalStreams) {
  return runWes(argv, { terminal: { columns: 200, ...tty }, configDir: config.dir, env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! } });
}

/** A file of fresh random bytes: the service cannot hold them already, so they are sent. */
function bigFile(n: number): string {
  const path = join(dir, `big-${n}.bin`);
  writeFileSync(path, randomBytes(SIZE));
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wes-upload-'));
  config = tempConfigDir();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  config.cleanup();
});

describe('upload progress', () => {
  it('assets upload shows bytes of the total on a terminal; stdout is still the asset id', async () => {
    const run = await wes(['assets', 'upload', bigFile(1)], { stderrTTY: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(LINE);
    expect(run.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  });

  it('nothing with --quiet, with --json, or when stderr is not a terminal', async () => {
    for (const [args, tty] of [
      [['--quiet'], { stderrTTY: true }],
      [['--json'], { stderrTTY: true }],
      [[], { stderrTTY: false }],
    ] as Array<[string[], TerminalStreams]>) {
      const run = await wes(['assets', 'upload', bigFile(2 + args.length), ...args], tty);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('uploading');
    }
  });

  it('jobs submit shows the upload of a file named by --set N.I=@FILE', async () => {
    const flow = join(dir, 'load.json');
    writeFileSync(flow, JSON.stringify({ '1': { class_type: 'LoadImage', inputs: { image: 'x' } }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'up' } } }));
    const run = await wes(['jobs', 'submit', flow, '--set', `1.image=@${bigFile(5)}`], { stderrTTY: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(LINE);
    expect(run.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  });

  it('legacy upload shows it too', async () => {
    const run = await wes(['legacy', 'upload', bigFile(6)], { stderrTTY: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(LINE);
    expect(run.stdout).toBe('big-6.bin\n');
  });
});
