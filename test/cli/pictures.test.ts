// --show and --preview through the in-process CLI on buffers that say they are terminals: the
// pictures are the encoders' sequences (the protocol forced with WES_PICTURES, or found from what
// a terminal sets), drawn under the path (--show, stdout) or in place under the spinner
// (--preview, stderr); off a terminal, with --json or on a terminal without pictures, only the
// paths, and one line on stderr saying why.
// Each test has a config folder (a job history) of its own; those that run a job or a model have a
// dev-server of their own (its engine runs one job at a time), the others only read the file's
// server and the finished job it holds. The downloads run first, in turn: they load the CLI, so
// that the watches after them, which run side by side with the rest, attach while their job runs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { runWes, tempConfigDir, type TerminalStreams } from '../helpers/cli.js';
import { bytesWorkflow, imageWorkflow, submitJob, useDevServer, useServerPerTest, waitForJob } from '../helpers/dev-server.js';
import { sampleWorkflow, submit } from '../dev-server/legacy-kit.js';

const OPTIONS: DevServerOptions = { stepMs: 40 };
const dev = useDevServer(OPTIONS);
const ownServer = useServerPerTest(OPTIONS);
let dir: string;
const cleanups: Array<() => void> = [];
let finished: string;

type OnTerminal = (argv: string[], tty: TerminalStreams, extraEnv: Record<string, string>) => ReturnType<typeof runWes>;

/**
 * wes against `server` with a config folder of the test's own, in a terminal's environment (plus
 * `extraEnv`: which terminal it is), on the streams `tty` says are one.
 */
function terminalAgainst(server: DevServerHandle): OnTerminal {
  const config = tempConfigDir();
  cleanups.push(config.cleanup);
  return (argv, tty, extraEnv) => {
    const env = { WES_BASE_URL: server.url, WES_API_KEY: server.apiKey!, WES_ROUTER_URL: server.url, WES_ROUTER_TOKEN: server.apiKey!, ...extraEnv };
    return runWes(argv, { terminal: tty, configDir: config.dir, env });
  };
}

/** A dev-server of the test's own, and wes on a terminal against it. */
async function own(): Promise<{ server: DevServerHandle; onTerminal: OnTerminal }> {
  const server = await ownServer();
  return { server, onTerminal: terminalAgainst(server) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wes-pictures-'));
  finished = (await submitJob(dev.server, imageWorkflow({ steps: 1, width: 64, height: 32 }))).body.id as string;
  await waitForJob(dev.server, `/api/v2/jobs/${finished}`, ['succeeded']);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('jobs download --show', () => {
  it('draws each saved picture under its path on a sixel terminal', async () => {
    const onTerminal = terminalAgainst(dev.server);
    const run = await onTerminal(['jobs', 'download', finished, join(dir, 'sixel'), '--show'], { stdoutTTY: true, stderrTTY: true }, { WES_PICTURES: 'sixel' });
    expect(run.code, run.stderr).toBe(0);
    const path = run.stdout.slice(0, run.stdout.indexOf('\n'));
    expect(path).toMatch(/sixel\/.*\.png$/);
    // 64x32 fits the thumbnail box: drawn at its own size.
    const picture = run.stdout.slice(path.length + 1);
    expect(picture.startsWith('\x1bP0;1;q"1;1;64;32#0;2;')).toBe(true);
    expect(picture.endsWith('\x1b\\\n')).toBe(true);
    expect(run.stderr).not.toContain('no pictures');
  });

  it('speaks iTerm2 where TERM_PROGRAM says iTerm.app, with the PNG it saved', async () => {
    const onTerminal = terminalAgainst(dev.server);
    const run = await onTerminal(['jobs', 'download', finished, join(dir, 'iterm'), '--show'], { stdoutTTY: true, stderrTTY: true }, { TERM_PROGRAM: 'iTerm.app' });
    expect(run.code, run.stderr).toBe(0);
    const [path, picture] = run.stdout.split('\n');
    const sequence = /^\x1b\]1337;File=inline=1;size=(\d+);width=(\d+);height=(\d+);preserveAspectRatio=1:([A-Za-z0-9+/=]+)\x07$/.exec(picture!);
    expect(sequence, picture).not.toBeNull();
    expect(Buffer.from(sequence![4]!, 'base64').subarray(0, 8)).toEqual(readFileSync(path!).subarray(0, 8));
    expect(Number(sequence![1])).toBe(Buffer.from(sequence![4]!, 'base64').length);
  });

  it('prints only the paths off a terminal, with --json, and where the terminal shows none; says why once', async () => {
    const onTerminal = terminalAgainst(dev.server);
    const piped = await onTerminal(['jobs', 'download', finished, join(dir, 'piped'), '--show'], { stdoutTTY: false, stderrTTY: true }, { WES_PICTURES: 'sixel' });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^[^\x1b]*\.png\n$/);
    expect(piped.stderr.match(/no pictures: stdout is not a terminal/g)).toHaveLength(1);

    const json = await onTerminal(['jobs', 'download', finished, join(dir, 'json'), '--show', '--json'], { stdoutTTY: true, stderrTTY: true }, { WES_PICTURES: 'kitty' });
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as Array<{ path: string }>)[0]!.path).toMatch(/\.png$/);
    expect(json.stderr).toContain('no pictures with --json or --jq');

    const tmux = await onTerminal(['jobs', 'download', finished, join(dir, 'tmux'), '--show'], { stdoutTTY: true, stderrTTY: true }, { TMUX: '/tmp/tmux-0/default,1,0' });
    expect(tmux.stdout).not.toContain('\x1b');
    expect(tmux.stderr).toContain('no pictures: tmux and screen do not pass pictures through');

    const unknown = await onTerminal(['jobs', 'download', finished, join(dir, 'xterm'), '--show'], { stdoutTTY: true, stderrTTY: true }, { TERM: 'xterm' });
    expect(unknown.stdout).not.toContain('\x1b');
    expect(unknown.stderr).toContain('the terminal cannot be asked (stdin is not a terminal); set WES_PICTURES=kitty, iterm or sixel');
  });
});

// Side by side with the describes after it, its tests in turn: the second's job (12 steps of 40 ms)
// must still run when its watch attaches, so it starts once the first has loaded `jobs watch`.
describe.concurrent('jobs watch --preview', () => {
  it.sequential('draws the latest preview in place under the spinner (kitty: one image id, replaced), and moves past it at the end', async () => {
    const { server, onTerminal } = await own();
    const id = (await submitJob(server, imageWorkflow({ steps: 30, width: 48, height: 48 }))).body.id as string;
    const run = await onTerminal(['jobs', 'watch', id, '--preview', '--interval', '0.05'], { stdoutTTY: true, stderrTTY: true }, { WES_PICTURES: 'kitty' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    const pictures = run.stderr.match(/\x1b_Ga=T,f=32,s=\d+,v=\d+,c=\d+,r=(\d+),i=1000771,C=1,q=2,m=[01];/g) ?? [];
    expect(pictures.length).toBeGreaterThanOrEqual(1);
    // Each picture goes into reserved rows under the line, the cursor saved and restored round it.
    const rows = Number(/r=(\d+)/.exec(pictures[0]!)![1]);
    expect(run.stderr).toContain(`${'\n'.repeat(rows + 1)}\x1b[${rows + 1}A\x1b7\x1b[1B\x1b_Ga=T`);
    // A new preview first deletes the one before.
    if (pictures.length > 1) expect(run.stderr).toContain('\x1b[J\x1b_Ga=d,d=I,i=1000771,q=2\x1b\\');
    expect(run.stderr).toMatch(/succeeded[^\n]*\n\x1b\[\d+B/);
  });

  it.sequential('says once why there is no picture when stdout is piped, and still follows the job', async () => {
    const { server, onTerminal } = await own();
    const id = (await submitJob(server, imageWorkflow({ steps: 12 }))).body.id as string;
    const run = await onTerminal(['jobs', 'watch', id, '--preview', '--interval', '0.05'], { stdoutTTY: false, stderrTTY: true }, { WES_PICTURES: 'kitty' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/no pictures: stdout is not a terminal/g)).toHaveLength(1);
    expect(run.stderr).not.toContain('\x1b_G');
  });
});

describe.concurrent('legacy watch --preview', () => {
  it('draws the binary preview frames in place under the spinner (sixel) and ends below the picture', async () => {
    const { server, onTerminal } = await own();
    const id = await submit(server, sampleWorkflow(30, 'legacy-preview'));
    const run = await onTerminal(['legacy', 'watch', id, '--preview'], { stdoutTTY: true, stderrTTY: true }, { WES_PICTURES: 'sixel' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('success\n');
    const pictures = [...run.stderr.matchAll(/\x1b7\x1b\[1B\x1bP0;1;q"1;1;(\d+);(\d+)#/g)];
    expect(pictures.length).toBeGreaterThanOrEqual(1);
    expect(run.stderr).toMatch(/prompt [^\n]*: success\n\x1b\[\d+B/);
  });
});

describe.concurrent('models run --show', () => {
  it('shows the pictures --download saved after the output on stdout (iTerm2, found from LC_TERMINAL over ssh)', async () => {
    const { onTerminal } = await own();
    const args = ['models', 'run', 'dev/image', '-i', 'prompt=a fox', '-i', 'width=64', '-i', 'height=64', '-i', 'num_images=2', '--download', join(dir, 'models'), '--show'];
    const run = await onTerminal(args, { stdoutTTY: true, stderrTTY: true }, { LC_TERMINAL: 'iTerm2' });
    expect(run.code, run.stderr).toBe(0);
    const pictures = run.stdout.match(/\x1b\]1337;File=inline=1;size=\d+;width=\d+;height=\d+;preserveAspectRatio=1:[A-Za-z0-9+/=]+\x07\n/g) ?? [];
    expect(pictures).toHaveLength(2);
    // The model's own output comes first, whole.
    expect(JSON.parse(run.stdout.slice(0, run.stdout.indexOf('\x1b]1337'))).images).toHaveLength(2);
    expect(run.stderr.match(/saved .*\.png/g)).toHaveLength(2);
  });

  it('--show without --download is a usage error before the model runs', async () => {
    const onTerminal = terminalAgainst(dev.server);
    const run = await onTerminal(['models', 'run', 'dev/image', '-i', 'prompt=a fox', '--show'], { stdoutTTY: true, stderrTTY: true }, { LC_TERMINAL: 'iTerm2' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--show.*--download/);
  });
});

describe.concurrent('what is not a picture', () => {
  it('an output that calls itself image/png but is not one is shown by path only, and none of its bytes reach the terminal', async () => {
    const { server, onTerminal } = await own();
    const id = (await submitJob(server, bytesWorkflow(4096, 'image/png'))).body.id as string;
    await waitForJob(server, `/api/v2/jobs/${id}`, ['succeeded']);
    const run = await onTerminal(['jobs', 'download', id, join(dir, 'fake'), '--show'], { stdoutTTY: true, stderrTTY: true }, { WES_PICTURES: 'kitty' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('\x1b');
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('1 file(s) shown by path only: pictures are drawn from PNG and JPEG files');
  });
});
