// The small stumbles of a first hour (issue 29, item 19): a spinner line that fits the terminal
// and says each thing once, one tick symbol, table headers with only bold on and off, jq errors
// about the user's expression (not wes's wrapper around it), /proc refused in words, groups named
// without a subcommand answered with their help like bare `wes`, and `-v` pointing to `-V`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import { progressLine } from '../../src/commands/jobs/job-view.js';
import type { Job } from '../../src/protocol/jobs.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

let server: DevServerHandle;
let dir: string;
beforeAll(async () => {
  server = await startFast({ stepMs: 15 });
  dir = mkdtempSync(join(tmpdir(), 'wes-small-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
const env = () => ({ WES_BASE_URL: server.url, WES_API_KEY: server.apiKey! });

describe('the progress line', () => {
  it('says the step once', () => {
    const job = { id: '7eb42581-f452-4375-8a6f-e985dd3c42f3', status: 'running', progress: { value: 0.21, nodes_done: 1, nodes_total: 3, current_node: '2', current_node_class: 'Sample', step: 2, steps: 12, message: 'Sample step 2/12' } } as unknown as Job;
    expect(progressLine(job)).toBe('7eb42581 running 21% · nodes 1/3 · Sample (node 2) · step 2/12');
    const failed = { ...job, progress: { ...job.progress, message: 'failed: out of cheese' } } as unknown as Job;
    expect(progressLine(failed)).toContain('· failed: out of cheese');
  });

  it('on an 80-column terminal, each spinner frame fits one line, and it ends with ✓', async () => {
    const flow = join(dir, 'long-names.json');
    writeFileSync(flow, JSON.stringify({
      '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 1 } },
      'a-node-with-a-rather-long-name': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 40, seed: 1, denoise: 1, sampler_name: 'euler' } },
      '3': { class_type: 'SaveImage', inputs: { images: ['a-node-with-a-rather-long-name', 0], filename_prefix: 'x' } },
    }));
    const res = await runWes(['jobs', 'submit', flow, '--wait', '--interval', '0.05'], { env: env(), terminal: { stderrTTY: true, columns: 80 } });
    expect(res.code, res.stderr).toBe(0);
    const frames = res.stderr.split(/\r|\n|\u001b\[2K|\u001b\[1G|\u001b\[\d*[AG]/).map((f) => f.replace(ANSI, ''));
    expect(frames.some((f) => f.includes('running') && f.endsWith('…'))).toBe(true); // a line too long was cut, not wrapped
    for (const frame of frames) expect([...frame].length, frame).toBeLessThanOrEqual(80);
    expect(res.stderr).toContain('✓');
    expect(res.stderr).not.toMatch(/[✔✖]/);
  });
});

describe('tables on a terminal', () => {
  it('style their header with bold on and off only (no resets a capture would show)', async () => {
    const res = await runWes(['config', 'list'], { env: env(), terminal: { stdoutTTY: true, columns: 100 } });
    expect(res.stdout).toMatch(/^\u001b\[1mKEY\u001b\[22m {2,}\u001b\[1mVALUE\u001b\[22m/);
    expect(res.stdout).not.toMatch(/\u001b\[(0|39|49)m/);
  });
});

describe('messages', () => {
  it('a jq expression that does not compile is told about itself, not the wrapper wes compiles it in', async () => {
    for (const [expr, said] of [['.a +', 'ends unfinished'], ['.[', 'ends unfinished'], ['{a:}', "unexpected '}' (column 4)"], [')', "unexpected ')' (column 1)"]]) {
      const res = await runWes(['help', 'exit-codes', '--jq', expr!]);
      expect(res.code).toBe(2);
      const message = JSON.parse(res.stderr).error.message as string;
      expect(message, expr).toContain(said);
      expect(message).not.toMatch(/else|empty end|line \d/);
    }
  });

  it('a folder that cannot be written is said in words, not an errno code', async () => {
    const res = await runWes(['jobs', 'submit', join(dir, 'long-names.json'), '--download', '/proc/x'], { env: env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('cannot write files in /proc: the system lets no file be created there');
    expect(res.stderr).not.toMatch(/\(E[A-Z]+\)/);
  });

  it('`wes jobs` shows its help as bare `wes` does: stdout, exit 0', async () => {
    for (const args of [[], ['jobs'], ['legacy'], ['config']]) {
      const res = await runWes(args);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout).toMatch(/^Usage: wes/);
    }
  });

  it('-v points to -V', async () => {
    const res = await runWes(['-v']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the version is -V (or --version)');
  });
});
