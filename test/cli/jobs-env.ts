// Shared setup of the `wes jobs` / `wes assets` CLI tests: the built binary pointed at an
// in-process dev-server, workflow files in a temp folder, NDJSON parsing and request counts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { runWes, type RunOptions, type RunResult } from '../helpers/cli.js';
import type { Json } from '../helpers/dev-server.js';

export type Wes = (args: string[], opts?: RunOptions & { baseUrl?: string }) => Promise<RunResult>;

export function wesAgainst(server: () => DevServerHandle): Wes {
  return (args, opts = {}) =>
    runWes(args, {
      ...opts,
      env: { WES_BASE_URL: opts.baseUrl ?? server().url, ...(server().apiKey ? { WES_API_KEY: server().apiKey } : {}), ...opts.env },
    });
}

/** A temp folder for the test file, removed afterwards. */
export function useTempDir(): () => string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-jobs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

let counter = 0;
/** Writes a file (JSON for objects) into `dir` under a fresh name and returns its path. */
export function writeTemp(dir: string, content: unknown, ext = 'json'): string {
  const path = join(dir, `f${++counter}.${ext}`);
  writeFileSync(path, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
  return path;
}

export function ndjson(stdout: string): Json[] {
  return stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Json);
}

export function seen(server: DevServerHandle, key: string): number {
  return server.state.requestCounts.get(key) ?? 0;
}

/** Sum of the request counts whose key matches. */
export function seenMatching(server: DevServerHandle, pattern: RegExp): number {
  let total = 0;
  for (const [key, n] of server.state.requestCounts) if (pattern.test(key)) total += n;
  return total;
}

/** onSpawn helper: sends SIGINT (or `signal`) once stderr shows a line matching `when`. */
export function interruptWhen(when: RegExp, signal: NodeJS.Signals = 'SIGINT'): (child: ChildProcess) => void {
  return (child) => {
    let seenText = '';
    let sent = false;
    child.stderr?.on('data', (chunk: Buffer) => {
      seenText += chunk.toString('utf8');
      if (!sent && when.test(seenText)) {
        sent = true;
        child.kill(signal);
      }
    });
  };
}

/** A Fail node after an image: the job runs, then fails with a traceback. */
export function failWorkflow(message = 'boom on purpose'): Json {
  return {
    '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } },
    '2': { class_type: 'Fail', inputs: { message } },
    '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'never' } },
  };
}

/** Two SaveImage nodes with the same prefix: two outputs with one name. */
export function twinWorkflow(prefix: string): Json {
  return {
    '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0x112233 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: prefix } },
    '3': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: prefix } },
  };
}
