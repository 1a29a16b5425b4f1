// Runs `wes` against an in-process dev-server's v1 surface, as a script would.
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { runWes, type RunOptions, type RunResult } from '../helpers/cli.js';

export const LEGACY_KEY = 'k-legacy-secret-0123456789';

export function wes(server: DevServerHandle, args: string[], opts: RunOptions & { key?: string } = {}): Promise<RunResult> {
  const { key, env, ...rest } = opts;
  return runWes(args, { ...rest, env: { WES_BASE_URL: server.url, WES_API_KEY: key ?? server.apiKey, ...env } });
}

/** Lines of NDJSON output, parsed. */
export function ndjson(stdout: string): Array<Record<string, any>> {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

export function countOf(server: DevServerHandle, key: string): number {
  return server.state.requestCounts.get(key) ?? 0;
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
