// Ctrl-C said one way everywhere (issue 29, item 11): `interrupted: <what keeps running>` and
// `resume with: <command>`, never a red `error: interrupted (code interrupted)`; with --json the
// error object carries the resume command. Exit 130 (143 for SIGTERM, 141 for a reader gone).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv, runProgram, tempConfigDir } from '../helpers/cli.js';
import { testIO } from '../helpers/test-io.js';
import { until } from '../helpers/until.js';
import { addFaults, imageWorkflow, startFast, submitJob } from '../helpers/dev-server.js';
import { longWorkflow, submit as submitPrompt } from '../dev-server/legacy-kit.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

let server: DevServerHandle;
let dir: string;
const cfg = tempConfigDir();
beforeAll(async () => {
  server = await startFast({ stepMs: 20, faults: true });
  dir = mkdtempSync(join(tmpdir(), 'wes-stop-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  cfg.cleanup();
});

/** Runs wes in this process and presses Ctrl-C once stderr shows `when` (or `when` says so). */
async function ctrlCWhen(args: string[], when: RegExp | ((io: ReturnType<typeof testIO>) => boolean)): Promise<{ code: number; stderr: string }> {
  const io = testIO();
  const ctrlC = new AbortController();
  const env = { ...childProcessEnv(), WES_CONFIG_DIR: cfg.dir, WES_BASE_URL: server.url, WES_API_KEY: server.apiKey! } as NodeJS.ProcessEnv;
  const done = runProgram(args, { io, env, interrupt: ctrlC.signal });
  await until(() => (typeof when === 'function' ? when(io) : when.test(io.stderr.text())), String(when));
  ctrlC.abort();
  return { code: await done, stderr: io.stderr.text() };
}

const readIfThere = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

const NO_ERROR_FORM = /error: interrupted|code interrupted|interrupted; /;

describe('Ctrl-C in one form', () => {
  it('jobs watch: what keeps running, and the command that resumes', async () => {
    const id = (await submitJob(server, imageWorkflow({ steps: 150 }))).body.id as string;
    const res = await ctrlCWhen(['jobs', 'watch', id, '--interval', '0.05'], /running/);
    expect(res.code).toBe(130);
    expect(res.stderr).toContain(`interrupted: job ${id} keeps running on the service\nresume with: wes jobs watch ${id}`);
    expect(res.stderr).not.toMatch(NO_ERROR_FORM);
  });

  it('legacy watch: the same form', async () => {
    const id = await submitPrompt(server, longWorkflow('stop', 2));
    const res = await ctrlCWhen(['legacy', 'watch', id], /step \d+/);
    expect(res.code).toBe(130);
    expect(res.stderr).toContain(`interrupted: prompt ${id} keeps running on the service\nresume with: wes legacy watch ${id}`);
    expect(res.stderr).not.toMatch(NO_ERROR_FORM);
  });

  it('a batch: stopped submitting, the jobs that keep running, the resume command', async () => {
    const lines = Array.from({ length: 6 }, (_, i) => JSON.stringify(imageWorkflow({ steps: 150, seed: i })));
    const batch = join(dir, 'jobs.jsonl');
    writeFileSync(batch, `${lines.join('\n')}\n`);
    const results = join(dir, 'results.jsonl');
    const res = await ctrlCWhen(['jobs', 'submit', '--batch', batch, '--results', results, '--concurrency', '2', '--interval', '0.05'], () => /"job_id":"[0-9a-f-]{36}"/.test(readIfThere(`${results}.journal`)));
    expect(res.code).toBe(130);
    expect(res.stderr, res.stderr).toMatch(/interrupted: stopped submitting, \d job\(s\) keep running on the service\nresume with: wes jobs submit --batch /);
    expect(res.stderr).not.toMatch(NO_ERROR_FORM);
  });

  it('a command with nothing left running says only that it was interrupted; --json carries the resume command', async () => {
    await addFaults(server, { match: 'GET /api/v2/jobs/slow-answer', action: 'delay', delay_ms: 3000 });
    const plain = await ctrlCWhen(['jobs', 'get', 'slow-answer'], /^/);
    expect(plain.code).toBe(130);
    expect(plain.stderr).toBe('interrupted\n');
    const id = (await submitJob(server, imageWorkflow({ steps: 150 }))).body.id as string;
    const json = await ctrlCWhen(['jobs', 'watch', id, '--json', '--interval', '0.05'], (io) => io.stdout.text().includes('"status"'));
    expect(json.code).toBe(130);
    const error = JSON.parse(json.stderr.trim().split('\n').at(-1)!).error;
    expect(error).toMatchObject({ code: 'interrupted', message: `interrupted: job ${id} keeps running on the service` });
    expect(error.details.resume).toContain(`jobs watch ${id}`);
  });

  it('--json: details.resume is only the command, which a script can run as it is (issue 38, item 7)', async () => {
    const id = (await submitJob(server, imageWorkflow({ steps: 150 }))).body.id as string;
    const json = await ctrlCWhen(['jobs', 'watch', id, '--json', '--interval', '0.05'], (io) => io.stdout.text().includes('"status"'));
    const error = JSON.parse(json.stderr.trim().split('\n').at(-1)!).error;
    expect(error.details.resume).toMatch(new RegExp(`^wes [^()]*jobs watch ${id}[^()]*$`));
    // (A person still reads how to cancel it after the command: jobs-refs-and-statuses.test.ts.)
  });
});
