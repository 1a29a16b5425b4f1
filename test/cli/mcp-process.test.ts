// `wes mcp` as a process: it ends when the client closes its standard input (exit 0), and on
// SIGTERM or Ctrl-C it stops at once, said as every interruption is (exit 143 or 130).
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { childProcessEnv, WES_BIN, spawnWes } from '../helpers/cli.js';
import { interruptWhen, useTempDir } from './jobs-env.js';

describe('the wes mcp process', () => {
  const dir = useTempDir();

  it('ends with exit 0 when standard input closes', async () => {
    const res = await spawnWes(['mcp'], { input: '', env: { WES_BASE_URL: 'http://127.0.0.1:9' } });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('wes mcp: serving');
  });

  it.each([['SIGTERM', 143, 'terminated (SIGTERM)'], ['SIGINT', 130, 'interrupted']] as const)('%s while standard input stays open: exit %i, saying jobs keep running', async (signal, code, said) => {
    // Standard input stays open, as an agent's pipe does (spawnWes would close it).
    const child = spawn(process.execPath, [WES_BIN, 'mcp'], { env: { ...childProcessEnv(), WES_CONFIG_DIR: dir(), WES_STATE_DIR: dir(), WES_BASE_URL: 'http://127.0.0.1:9' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    interruptWhen(/wes mcp: serving/, signal)(child);
    const exit = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(child.stdin.writableEnded).toBe(false);
    child.stdin.destroy();
    expect(exit, stderr).toBe(code);
    expect(stderr).toContain(`${said}: jobs submitted through it keep running on the service`);
  });
});
