// SIGINT and SIGTERM sent to a real `wes` process at chosen moments: both stop in order (130 and
// 143), leave what can be resumed, and say how to go on; a keyed submit cut short names its key;
// `jobs submit -` on a terminal says how to end the input and honours the first Ctrl-C.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childProcessEnv, tempConfigDir, WES_BIN } from '../helpers/cli.js';
import { addFaults, imageWorkflow, submitJob } from '../helpers/dev-server.js';
import { longWorkflow, submit as submitPrompt } from '../dev-server/legacy-kit.js';
import { interruptWhen, useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { jobsTagged, until, useFaultServer } from './kit.js';

const fx = useFaultServer({ stepMs: 10, jobList: true });
const wes = wesAgainst(() => fx.server);
const dir = useTempDir();
const work = mkdtempSync(join(tmpdir(), 'wes-signals-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('signals', () => {
  it('SIGTERM in jobs watch: exit 143, the job keeps running, the resume command is named', async () => {
    const id = (await submitJob(fx.server, imageWorkflow({ prefix: 'sig1', steps: 150 }))).body.id as string;
    const res = await wes(['jobs', 'watch', id, '--interval', '0.1'], { onSpawn: interruptWhen(/running|queued/, 'SIGTERM') });
    expect(res.code, res.stderr).toBe(143);
    expect(res.stderr).toContain(`resume with: wes jobs watch ${id}`);
    expect(fx.server.state.engine.get(id)?.status).not.toBe('canceled');
  });

  it('SIGTERM while a submit waits for its answer: exit 143 and the key that finds the job', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'sig2', steps: 1 }));
    await addFaults(fx.server, { match: 'POST /api/v2/jobs', action: 'delay', delay_ms: 1500 });
    const res = await wes(['jobs', 'submit', flow, '--verbose', '--idempotency-key', 'k-sig-2'], { onSpawn: interruptWhen(/> idempotency-key/, 'SIGTERM') });
    expect(res.code).toBe(143);
    expect(res.stderr).toContain('terminated (SIGTERM): the submit was on its way and may have made a job\nresume with: wes jobs find --key k-sig-2');
    // Whether the server went on to make the job is its own affair: the named command tells which,
    // and nothing ever made a second one.
    await until(() => fx.log.some((line) => line.startsWith('POST /api/v2/jobs ')), 'the submit to end on the server');
    const found = await wes(['jobs', 'find', '--key', 'k-sig-2']);
    const jobs = jobsTagged(fx.server, 'sig2');
    if (found.code === 0) expect(jobs).toEqual([found.stdout.trim()]);
    else {
      expect(found.code, found.stderr).toBe(5);
      expect(found.stderr).toContain('the submit made none');
      expect(jobs).toEqual([]);
    }
  });

  it('legacy watch interrupted: says the prompt runs on, what previews it kept, and how to follow on', async () => {
    const id = await submitPrompt(fx.server, longWorkflow('sig3', 2));
    const previews = join(work, 'previews');
    const res = await wes(['legacy', 'watch', id, '--previews', previews], { onSpawn: interruptWhen(/step \d+\/150/, 'SIGINT') });
    expect(res.code, res.stderr).toBe(130);
    const kept = readdirSync(previews).length;
    expect(res.stderr, res.stderr).toContain(`interrupted: prompt ${id} keeps running on the service; ${kept} preview(s) saved in ${previews}`);
    expect(res.stderr).toContain(`resume with: wes legacy watch ${id} --previews ${previews}`);
  });

  // Seen against a real ComfyUI 0.3.18: `legacy prompt --wait` (which polls, no socket) stopped by
  // SIGTERM said only "terminated (SIGTERM)", not that the prompt stays queued nor how to wait on.
  it('legacy prompt --wait and legacy status --wait stopped while polling: the prompt runs on, and how to wait on', async () => {
    const flow = writeTemp(dir(), longWorkflow('sig5', 2));
    const res = await wes(['legacy', 'prompt', flow, '--wait', '--interval', '0.1'], { onSpawn: interruptWhen(/: (submitted|executing|running|pending)\n/, 'SIGTERM') });
    expect(res.code, res.stderr).toBe(143);
    const id = res.stdout.trim();
    expect(res.stderr).toContain(`terminated (SIGTERM): prompt ${id} keeps running on the service\nresume with: wes legacy status ${id} --wait`);
    const again = await wes(['legacy', 'status', id, '--wait', '--interval', '0.1'], { onSpawn: interruptWhen(/: (submitted|executing|running|pending)\n/, 'SIGINT') });
    expect(again.code, again.stderr).toBe(130);
    expect(again.stderr).toContain(`interrupted: prompt ${id} keeps running on the service\nresume with: wes legacy status ${id} --wait`);
  });

  it('jobs submit - on a terminal: a prompt on stderr, and the first Ctrl-C ends it (130)', async () => {
    const config = tempConfigDir();
    try {
      // `script` gives wes a terminal; a ^C typed into it is SIGINT from the line discipline.
      const child = spawn('script', ['-qec', `${process.execPath} ${WES_BIN} jobs submit -`, '/dev/null'], {
        env: { ...childProcessEnv(), WES_CONFIG_DIR: config.dir, WES_BASE_URL: fx.server.url, WES_API_KEY: fx.server.apiKey, TERM: 'dumb' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let screen = '';
      const code = await new Promise<number | null>((resolve) => {
        let typed = false;
        child.stdin.on('error', () => undefined);
        child.stdout.on('data', (chunk: Buffer) => {
          screen += chunk.toString('utf8');
          if (!typed && screen.includes('end with Ctrl-D')) {
            typed = true;
            child.stdin.write('\u0003');
          }
        });
        child.on('close', (c) => resolve(c));
      });
      expect(screen).toContain('reading workflow JSON from stdin; end with Ctrl-D');
      expect(code).toBe(130);
    } finally {
      config.cleanup();
    }
  });
});
