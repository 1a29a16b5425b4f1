// The built CLI makes process.stdin (a socket or file stream for fd 0, ~1.5 ms of every start)
// only when a command reads its input: `jobs get` never does, a piped credential or workflow is
// still read. A preload notes the first touch of process.stdin.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnWes, tempConfigDir } from '../helpers/cli.js';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir } from './jobs-env.js';

const PRELOAD = join(import.meta.dirname, '../fixtures/start-up/note-stdin-use.cjs');

describe('standard input of the built CLI', () => {
  const ctx = useDevServer({});
  const dir = useTempDir();
  const env = (note: string) => ({ NODE_OPTIONS: `--require ${PRELOAD}`, WES_TEST_STDIN_FILE: note, WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey });

  it('`jobs get` answers without touching it', async () => {
    const id = (await submitJob(ctx.server, bytesWorkflow(64))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const note = join(dir(), 'get.txt');
    const res = await spawnWes(['jobs', 'get', id, '--json'], { env: env(note), input: '{"not": "read"}' });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).id).toBe(id);
    expect(existsSync(note)).toBe(false);
  });

  it('a piped credential and a piped workflow are read', async () => {
    const config = tempConfigDir();
    try {
      const login = join(dir(), 'login.txt');
      const auth = await spawnWes(['auth', 'login', '--with-token'], { configDir: config.dir, env: { ...env(login), WES_API_KEY: '' }, input: `${ctx.server.apiKey}\n` });
      expect(auth.code, auth.stderr).toBe(0);
      expect(readFileSync(login, 'utf8')).toBe('stdin');
      const submit = join(dir(), 'submit.txt');
      const res = await spawnWes(['jobs', 'submit', '-', '--json'], { configDir: config.dir, env: { ...env(submit), WES_API_KEY: '' }, input: JSON.stringify(bytesWorkflow(64)) });
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout).id).toMatch(/\S/);
      expect(readFileSync(submit, 'utf8')).toBe('stdin');
    } finally {
      config.cleanup();
    }
  });
});
