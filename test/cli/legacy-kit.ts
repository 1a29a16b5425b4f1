// Runs `wes` against an in-process dev-server's v1 surface, as a script would: the server and a
// temp folder for a test file, and the run, output and request-count helpers its tests share.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { runWes, type RunOptions, type RunResult } from '../helpers/cli.js';
import { startFast, useServerPerTest } from '../helpers/dev-server.js';

export { until } from '../helpers/until.js';

export const LEGACY_KEY = 'k-legacy-secret-0123456789';

export interface LegacyFixture {
  /** The dev-server, started before the tests (the file's, or one test's) and closed after the file's. */
  readonly server: DevServerHandle;
  /** A temp folder of its own, removed after the file's tests. */
  readonly dir: string;
  /** Writes `content` (JSON for anything but text and bytes) into the folder; returns its path. */
  file(name: string, content: unknown): string;
  /** Runs wes against the server (with its key unless `key` says otherwise). */
  wes(args: string[], opts?: RunOptions & { key?: string }): Promise<RunResult>;
}

/** The fixture over a server and a folder, read when a test uses them. */
function fixture(get: () => { server: DevServerHandle; dir: string }): LegacyFixture {
  return {
    get server() {
      return get().server;
    },
    get dir() {
      return get().dir;
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
  return fixture(() => {
    if (!server || !dir) throw new Error('the dev-server starts and the temp folder is made in beforeAll');
    return { server, dir };
  });
}

/**
 * A dev-server and a temp folder of its own for each test that calls the returned function (tests
 * that run side by side: their faults, sockets, request counts and jobs must not meet), all closed
 * and removed after the file.
 */
export function useLegacyServerPerTest(options: DevServerOptions, prefix: string): () => Promise<LegacyFixture> {
  const ownServer = useServerPerTest(options);
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return async () => {
    const server = await ownServer();
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return fixture(() => ({ server, dir }));
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
