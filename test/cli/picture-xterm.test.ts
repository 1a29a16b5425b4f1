// One picture drawn by a real terminal: xterm as a VT340 (which renders sixel) on a virtual X
// display, running `wes jobs download --show` against the dev-server. wes finds sixel by asking
// the terminal (DA1 lists 4), and a screenshot of the display must hold the known image's pixels.
// Skipped, saying so, where xterm, Xvfb or xwd is not installed (.ci/run installs them when it can).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WES_BIN } from '../helpers/cli.js';
import { submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { useTempDir } from './jobs-env.js';

const TOOLS = ['xterm', 'Xvfb', 'xwd'];
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const WIDTH = 96;
const HEIGHT = 48;

/** Counts the pixels of an XWD screenshot (ZPixmap, 24/32 bits) that are pure red. */
function redPixels(xwd: Buffer): number {
  const field = (i: number) => xwd.readUInt32BE(i * 4);
  const [headerSize, width, height, byteOrder, bitsPerPixel, bytesPerLine] = [field(0), field(4), field(5), field(7), field(11), field(12)];
  const [redMask, greenMask, blueMask, colors] = [field(14), field(15), field(16), field(19)];
  if (bitsPerPixel !== 32) throw new Error(`the screenshot has ${bitsPerPixel} bits per pixel; expected 32`);
  const channel = (value: number, mask: number) => {
    const shift = 31 - Math.clz32(mask & -mask);
    return (((value & mask) >>> shift) * 255) / (mask >>> shift);
  };
  const start = headerSize + colors * 12;
  let red = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = start + y * bytesPerLine + x * 4;
      const value = byteOrder === 0 ? xwd.readUInt32LE(at) : xwd.readUInt32BE(at);
      if (channel(value, redMask) > 240 && channel(value, greenMask) < 16 && channel(value, blueMask) < 16) red++;
    }
  }
  return red;
}

/** Starts Xvfb on a free display number (it writes the number to fd 3 once ready). */
function startDisplay(children: ChildProcess[]): Promise<string> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '800x600x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  children.push(xvfb);
  return new Promise((resolve, reject) => {
    let text = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
}

describe('a picture in a real terminal', () => {
  const dev = useDevServer();
  const dir = useTempDir();
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children.reverse()) child.kill('SIGKILL');
  });

  if (missing.length > 0) {
    it.skip(`xterm -ti vt340 under Xvfb shows the picture of jobs download --show (skipped: ${missing.join(', ')} not found; apt-get install xvfb xterm x11-apps)`, () => {});
    return;
  }

  it('xterm -ti vt340 under Xvfb shows the picture of jobs download --show: its red pixels are on the screen', async () => {
    const workflow = {
      '1': { class_type: 'EmptyImage', inputs: { width: WIDTH, height: HEIGHT, batch_size: 1, color: 0xff0000 } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'red' } },
    };
    const id = (await submitJob(dev.server, workflow)).body.id as string;
    await waitForJob(dev.server, `/api/v2/jobs/${id}`, ['succeeded']);

    const display = await startDisplay(children);
    const done = join(dir(), 'done');
    const script = join(dir(), 'run.sh');
    writeFileSync(script, `"${process.execPath}" "${WES_BIN}" jobs download ${id} "${join(dir(), 'out')}" --show 2>"${join(dir(), 'stderr')}"\necho $? > "${done}"\nsleep 120\n`);
    // Only what xterm itself sets tells wes about the terminal.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir(), DISPLAY: display, WES_CONFIG_DIR: join(dir(), 'config'), WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey };
    children.push(spawn('xterm', ['-ti', 'vt340', '-geometry', '100x40+0+0', '-xrm', 'XTerm*numColorRegisters: 256', '-e', 'sh', script], { env, stdio: 'ignore' }));

    // `echo $? > done` creates the file before it writes the status: wait for the line itself.
    await until(() => existsSync(done) && readFileSync(done, 'utf8').endsWith('\n'), 'wes to finish inside xterm', 30_000);
    const stderr = readFileSync(join(dir(), 'stderr'), 'utf8');
    expect(readFileSync(done, 'utf8').trim(), stderr).toBe('0');
    expect(stderr).not.toMatch(/no pictures/);
    // The picture is on the screen once a screenshot holds it (xterm draws asynchronously).
    let red = 0;
    await until(() => {
      const shot = spawnSync('xwd', ['-root', '-silent', '-display', display], { maxBuffer: 64 << 20 });
      red = shot.status === 0 ? redPixels(shot.stdout) : 0;
      return red >= WIDTH * HEIGHT;
    }, 'a screenshot holding the picture', 10_000);
    expect(red).toBeGreaterThanOrEqual(WIDTH * HEIGHT);
    expect(red).toBeLessThan(WIDTH * HEIGHT * 2);
  }, 60_000);
});
