// A purpose-built server that replays an engine's recorded answers, started for a describe block,
// with `wes` pointed at it as a self-hosted engine (a fresh config folder each block).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { runWes, tempConfigDir, type RunResult } from './cli.js';

export function wesAgainstReplay(server: Server): (args: string[], input?: string) => Promise<RunResult> {
  let url = '';
  let config: ReturnType<typeof tempConfigDir>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    config = tempConfigDir();
  });
  afterAll(async () => {
    config.cleanup();
    await new Promise((resolve) => server.close(resolve));
  });
  return (args, input) => runWes(args, { configDir: config.dir, input, env: { WES_BASE_URL: url, WES_ENGINE: 'self-hosted' } });
}
