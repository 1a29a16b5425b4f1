// Shared pieces of the fault suite: a dev-server with faults and a request log, request-count
// deltas, jobs counted in the engine itself, the Idempotency-Keys a --verbose run sent, and a
// download's job, part file and the signal that cuts it short.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { runWes, type RunOptions, type RunResult } from '../helpers/cli.js';
import { bytesWorkflow, finishedJob, useDevServer, type Json } from '../helpers/dev-server.js';

export interface FaultServer {
  readonly server: DevServerHandle;
  /** Every request the server answered: `METHOD /raw-url STATUS TIMEms`. */
  readonly log: string[];
}

/** A dev-server with faults on, whose request log the tests can read. */
export function useFaultServer(options: DevServerOptions = {}): FaultServer {
  const log: string[] = [];
  const ctx = useDevServer({ faults: true, ...options, log: (line) => log.push(line) });
  return {
    get server() {
      return ctx.server;
    },
    log,
  };
}

/** Request counts from now on: `delta('POST /api/v2/jobs')` is what was made since. */
export function countsFrom(server: DevServerHandle): { delta(key: string): number; matching(pattern: RegExp): number } {
  const before = new Map(server.state.requestCounts);
  const now = (key: string) => (server.state.requestCounts.get(key) ?? 0) - (before.get(key) ?? 0);
  return {
    delta: now,
    matching(pattern) {
      let total = 0;
      for (const key of server.state.requestCounts.keys()) if (pattern.test(key)) total += now(key);
      return total;
    },
  };
}

/** Jobs the engine holds whose workflow mentions `tag` (each test tags its workflows). */
export function jobsTagged(server: DevServerHandle, tag: string): string[] {
  return server.state.engine
    .list()
    .filter((job) => JSON.stringify(job.workflow).includes(tag))
    .map((job) => job.id);
}

/** The Idempotency-Key of every request attempt a `--verbose` run printed, in order. */
export function idempotencyKeysSent(stderr: string): string[] {
  return [...stderr.matchAll(/^> idempotency-key: (.+)$/gm)].map((m) => m[1]!.trim());
}

/** Log lines (see useFaultServer) of requests whose raw URL starts with `prefix`. */
export function logged(log: string[], method: string, prefix: string): string[] {
  return log.filter((line) => line.startsWith(`${method} ${prefix}`));
}

/** Every file below `dir`, as paths relative to it (sorted). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for something the server records after the answer went out. */
export { until } from '../helpers/until.js';

/** Runs wes against any base URL (a purpose-built server), with an optional API key. */
export function wesAt(baseUrl: string, args: string[], opts: RunOptions & { apiKey?: string } = {}): Promise<RunResult> {
  const { apiKey, env, ...rest } = opts;
  return runWes(args, { ...rest, env: { WES_BASE_URL: baseUrl, ...(apiKey ? { WES_API_KEY: apiKey } : {}), ...env } });
}

/** The id of a job of `workflow`, once it has succeeded. */
export async function finishedJobId(server: DevServerHandle, workflow: Json): Promise<string> {
  return (await finishedJob(server, workflow)).id;
}

/** A finished job whose one output is `size` bytes (SaveBytes): its id, the output, and the signed URL's path. */
export async function finishedBytesJob(server: DevServerHandle, size: number): Promise<{ id: string; output: Json; signed: string }> {
  const { id, job } = await finishedJob(server, bytesWorkflow(size));
  const output = job.outputs[0];
  return { id, output, signed: new URL(output.url).pathname };
}

/** The size of the file at `path`, 0 when there is none. */
export function partSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** onSpawn: sends `signal` once the file at `path` holds at least `bytes` bytes. */
export function signalWhenPart(path: string, bytes: number, signal: NodeJS.Signals): (child: ChildProcess) => void {
  return plannedSignal(path, bytes, signal).onSpawn;
}

/**
 * signalWhenPart that also tells whether it sent its signal, so a test can tell its own kill from
 * runWes's timeout (a process that never exited, which must fail the test, not pass for a kill).
 */
export function plannedSignal(path: string, bytes: number, signal: NodeJS.Signals): { onSpawn: (child: ChildProcess) => void; sent: () => boolean } {
  let sent = false;
  const onSpawn = (child: ChildProcess) => {
    const timer = setInterval(() => {
      if (partSize(path) >= bytes) {
        clearInterval(timer);
        sent = child.kill(signal);
      }
    }, 5);
    child.on('exit', () => clearInterval(timer));
  };
  return { onSpawn, sent: () => sent };
}
