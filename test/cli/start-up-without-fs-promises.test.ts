// What `jobs get` does not load when a script runs it with stdin on a file or /dev/null (a CI
// step's, `< /dev/null`, the bench's): node:fs/promises and what it pulls in (readline, fs/dir,
// fs watchers). Two things used to load it: the chunks on the way (blake3's file reads, multipart
// uploads, safe-file for the profile store's writes), and process.stdin, which Node builds as a
// file stream there (made only on first read now: test/cli/stdin-only-when-read.test.ts).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WES_BIN } from '../helpers/cli.js';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir } from './jobs-env.js';

const PRELOAD = join(import.meta.dirname, '../fixtures/start-up/list-loaded-builtins.cjs');
const FS_PROMISES = ['NativeModule fs/promises', 'NativeModule internal/fs/promises', 'NativeModule internal/readline/interface', 'NativeModule internal/fs/dir'];

/** The built CLI with stdin read from `stdinFile`, as a shell's `< file` gives it. */
function wesWithStdinFrom(stdinFile: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const fd = openSync(stdinFile, 'r');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WES_BIN, ...args], { env, stdio: [fd, 'pipe', 'pipe'] });
    closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('start-up of the built CLI with stdin on a file', () => {
  const ctx = useDevServer({});
  const dir = useTempDir();
  const env = () => ({ PATH: process.env.PATH, HOME: dir(), WES_CONFIG_DIR: dir(), WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey, NO_COLOR: '1' });

  it('`jobs get --json < /dev/null` loads no node:fs/promises, readline or fs/dir', async () => {
    const id = (await submitJob(ctx.server, bytesWorkflow(1024))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const list = join(dir(), 'builtins.txt');
    const res = await wesWithStdinFrom('/dev/null', ['jobs', 'get', id, '--json'], { ...env(), NODE_OPTIONS: `--require ${PRELOAD}`, WES_TEST_BUILTINS_FILE: list });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).id).toBe(id);
    const loaded = readFileSync(list, 'utf8').split('\n');
    rmSync(list);
    expect(loaded).toContain('NativeModule net'); // the list is real: a request was made
    for (const name of FS_PROMISES) expect(loaded).not.toContain(name);
  });
});
