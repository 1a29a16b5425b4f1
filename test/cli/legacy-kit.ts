// Runs `wes` against an in-process dev-server's v1 surface, as a script would: the server and a
// temp folder for a test file, and the run, output and request-count helpers its tests share.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { runWes, type RunOptions, type RunResult } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';

export { until } from '../helpers/until.js';

export const LEGACY_KEY = 'k-legacy-secret-0123456789';

export interface LegacyFixture {
  /** The dev-server, started before the file's tests and closed after them. */
  readonly server: DevServerHandle;
  /** A temp folder of the file's own, removed after its tests. */
  readonly dir: string;
  /** Writes `content` (JSON for anything but text and bytes) into the folder; returns its path. */
  file(name: string, content: unknown): string;
  /** Runs wes against the server (with its key unless `key` says otherwise). */
  wes(args: string[], opts?: RunOptions & { key?: string }): Promise<RunResult>;
}

/** A dev-server started with `options` and a temp folder named `prefix…`, around one test file. */
export function useLegacyServer(options: DevServerOptions, prefix: string): LegacyFixture {
  let server: DevServerHandle | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    server = await startFast(options);
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get server() {
      if (!server) throw new Error('the dev-server starts in beforeAll');
      return server;
    },
    get dir() {
      if (!dir) throw new Error('the temp folder is made in beforeAll');
      return dir;
    },
    file(name, content) {
      const path = join(this.dir, name);
      writeFileSync(path, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
      return path;
    },
    wes(args, opts) {
      return wes(this.server, args, opts);
    },
  };
}

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
