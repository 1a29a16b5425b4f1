// Shared setup of the `wes models` CLI tests: the binary pointed at an in-process dev-server.
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { runWes, type RunOptions, type RunResult } from '../helpers/cli.js';

export function wesAgainst(server: () => DevServerHandle) {
  return (args: string[], opts: RunOptions & { token?: string } = {}): Promise<RunResult> =>
    runWes(args, {
      ...opts,
      env: { WES_BASE_URL: server().url, WES_API_KEY: 'wes-dev-key', ...(opts.token ? { WES_ROUTER_TOKEN: opts.token } : {}), ...opts.env },
    });
}

/** Requests the server has seen for `METHOD path`. */
export function seen(server: DevServerHandle, key: string): number {
  return server.state.requestCounts.get(key) ?? 0;
}

export function totalRequests(server: DevServerHandle): number {
  let total = 0;
  for (const n of server.state.requestCounts.values()) total += n;
  return total;
}
