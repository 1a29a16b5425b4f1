// Shared pieces of the `jobs submit --batch` tests: batch files of tagged workflows, result
// lines read back, the jobs the engine really made for a tag, and the kills of a crash loop.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import type { BatchResult } from '../../src/features/batch/runner.js';
import { startFast, type Json } from '../helpers/dev-server.js';

/**
 * A quick job: an image saved under a prefix carrying the tag and the line's number. With `steps`,
 * it goes through `samplers` samplers in a row (1 unless given) of that many steps each.
 */
export function quickWorkflow(tag: string, i: number, extra: { steps?: number; samplers?: number } = {}): Json {
  if (extra.steps) {
    const flow: Record<string, unknown> = { '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: i } } };
    let last = '1';
    for (let n = 0; n < (extra.samplers ?? 1); n++) {
      const id = n === 0 ? '2' : String(3 + n);
      flow[id] = { class_type: 'Sample', inputs: { image: [last, 0], steps: extra.steps, seed: i, denoise: 1, sampler_name: 'euler' } };
      last = id;
    }
    flow['3'] = { class_type: 'SaveImage', inputs: { images: [last, 0], filename_prefix: `${tag}-${i}` } };
    return flow as Json;
  }
  return {
    '1': { class_type: 'EmptyImage', inputs: { width: 4, height: 4, batch_size: 1, color: i } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: `${tag}-${i}` } },
  };
}

/** Writes one JSON value per line. */
export function writeBatch(dir: string, name: string, lines: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

export function readResultLines(text: string): BatchResult[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as BatchResult);
}

export function resultsFile(path: string): BatchResult[] {
  return readResultLines(readFileSync(path, 'utf8'));
}

/** Jobs the engine holds whose workflow mentions `tag`. */
export function engineJobs(server: DevServerHandle, tag: string): string[] {
  return server.state.engine.list().filter((j) => JSON.stringify(j.workflow).includes(`"${tag}-`)).map((j) => j.id);
}

/** For each line, the servers holding a job of it (one entry per job: a line sent twice shows twice). */
export function whereEachLineRan(servers: DevServerHandle[], tag: string, lines: number): string[][] {
  const prefixed = (s: DevServerHandle, prefix: string) => s.state.engine.list().filter((j) => JSON.stringify(j.workflow).includes(`"${prefix}"`));
  return Array.from({ length: lines }, (_, i) => servers.flatMap((s) => prefixed(s, `${tag}-${i + 1}`).map(() => s.url)));
}

/**
 * An onSpawn hook that closes `server` once its engine holds `jobs` jobs; `stoppedAt()` is how many
 * it held then (0: never), `closedAt()` the time it was closed (0: never).
 */
export function closeWhenBusy(server: DevServerHandle, jobs: number): { onSpawn: () => void; stoppedAt: () => number; closedAt: () => number } {
  let stoppedAt = 0;
  let closedAt = 0;
  return {
    onSpawn: () => {
      const watch = setInterval(() => {
        if (server.state.engine.list().length < jobs) return;
        clearInterval(watch);
        stoppedAt = server.state.engine.list().length;
        closedAt = Date.now();
        void server.close();
      }, 5);
    },
    stoppedAt: () => stoppedAt,
    closedAt: () => closedAt,
  };
}

/**
 * One kill of a crash loop: SIGKILL once 1 to 3 new jobs were asked of `servers`, so it lands
 * mid-run however slow the start-up is under load, or (one time in four) at a random moment of
 * the start-up itself. `label` says which, for the failure message with the seed.
 */
export function randomKill(random: () => number, servers: DevServerHandle[]): { label: string; onSpawn: (child: ChildProcess) => void } {
  const afterJobs = Math.floor(random() * 4);
  const delayMs = Math.round(random() * 300);
  const posts = () => servers.reduce((n, server) => n + (server.state.requestCounts.get('POST /api/v2/jobs') ?? 0), 0);
  return {
    label: afterJobs === 0 ? `${delayMs}ms` : `${afterJobs} jobs`,
    onSpawn: (child) => {
      if (afterJobs === 0) return void setTimeout(() => child.kill('SIGKILL'), delayMs);
      const from = posts();
      const watch = setInterval(() => {
        if (posts() - from >= afterJobs) child.kill('SIGKILL');
      }, 5);
      child.on('exit', () => clearInterval(watch));
    },
  };
}

/** A config folder with one profile per server: `a`, `b`, ... */
export function profilesFor(servers: DevServerHandle[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-via-'));
  const profiles = Object.fromEntries(servers.map((s, i) => [String.fromCharCode(97 + i), { base_url: s.url, api_key: s.apiKey }]));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts two dev-servers (3 slots, a job list) per call, as endpoints `a` and `b`; all are closed after the file. */
export function useServerPairs(): () => Promise<[DevServerHandle, DevServerHandle]> {
  const started: DevServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
  });
  return async () => {
    const pair = [await startFast({ stepMs: 2, slots: 3, jobList: true }), await startFast({ stepMs: 2, slots: 3, jobList: true })] as [DevServerHandle, DevServerHandle];
    started.push(...pair);
    return pair;
  };
}
