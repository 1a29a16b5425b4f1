// The job history with two wes processes writing at once while the oldest records are removed
// (bounded by compaction) again and again: no job either process recorded is lost, every job
// keeps the last status its process recorded, and every record is whole. The processes are real
// (node running history.ts bundled by esbuild), so their writes, renames and removals interleave.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobHistory } from '../../src/config/history.js';

const JOBS = 300;
let dir: string;
let bundle: string;

/**
 * A memory file system where there is one: every single write fsyncs its record and the folder
 * (1 438 fsyncs per process here), which on a disk cost more CPU than the rest of the test (a
 * writer: 1.7 s on ext4, 0.6 s on tmpfs) and is not what is tested; the same calls are made.
 */
const MEMORY_FS = '/dev/shm';

beforeAll(async () => {
  dir = mkdtempSync(join(existsSync(MEMORY_FS) ? MEMORY_FS : tmpdir(), 'wes-hist-two-'));
  bundle = join(dir, 'history.mjs');
  await build({ entryPoints: [fileURLToPath(new URL('../../src/config/history.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One process: JOBS jobs, each submitted through a batch writer or alone, then given a final status. */
function writer(state: string, name: string, limits: object, shared = ''): Promise<number> {
  const script = `
    import { JobHistory } from ${JSON.stringify(bundle)};
    const h = new JobHistory(${JSON.stringify(state)}, 'p', 'http://a', ${JSON.stringify(limits)});
    const w = h.writer(5);
    for (let i = 0; i < ${JOBS}; i++) {
      const id = '${name}-' + i;
      if (i % 3 === 0) h.recordSubmitted(id, 'queued', 'one.json');
      else w.recordSubmitted(id, 'queued', 'batch f:' + i);
      // Undefined only for a job the other process compacted away meanwhile (bounded); the first
      // test, which removes nothing, finds every even job 'succeeded'.
      const done = i % 2 === 0 ? h.statusLine(id, 'succeeded') : undefined;
      if (done) w.append(done);
      ${shared ? `new JobHistory(${JSON.stringify(state)}, 'p', 'http://a', ${JSON.stringify(limits)}).recordStatus(${JSON.stringify(shared)}, '${name}-' + i);` : ''}
    }
    w.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
}

function wholeRecords(h: JobHistory): string[] {
  const names = readdirSync(h.path).filter((n) => !n.startsWith('.'));
  for (const name of names) expect(() => JSON.parse(readFileSync(join(h.path, name), 'utf8')), name).not.toThrow();
  return names;
}

describe('JobHistory with two processes writing at once', () => {
  it('loses no job and no status while both write and compact, and a job both update stays whole', async () => {
    const state = join(dir, 'state');
    const limits = { maxJobs: 120, keepJobs: 1_000_000 };
    const h = new JobHistory(state, 'p', 'http://a', limits);
    h.recordSubmitted('shared', 'queued', 's.json');
    expect(await Promise.all([writer(state, 'a', limits, 'shared'), writer(state, 'b', limits, 'shared')])).toEqual([0, 0]);
    const byId = new Map(h.entries().map((e) => [e.id, e.status]));
    for (const name of ['a', 'b']) {
      for (let i = 0; i < JOBS; i++) expect(byId.get(`${name}-${i}`), `${name}-${i}`).toBe(i % 2 === 0 ? 'succeeded' : 'queued');
    }
    // The job both processes gave a status to 300 times holds the last one of either.
    expect([`a-${JOBS - 1}`, `b-${JOBS - 1}`]).toContain(byId.get('shared'));
    expect(byId.size).toBe(2 * JOBS + 1);
    expect(wholeRecords(h)).toHaveLength(2 * JOBS + 1);
    expect(readdirSync(h.path).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('stays bounded while both compact at once, keeping the newest jobs', async () => {
    const state = join(dir, 'bounded');
    const limits = { maxJobs: 60, keepJobs: 40 };
    expect(await Promise.all([writer(state, 'a', limits), writer(state, 'b', limits)])).toEqual([0, 0]);
    const h = new JobHistory(state, 'p', 'http://a', limits);
    const kept = wholeRecords(h).length;
    // Each process counts what it listed plus what it wrote since, and compacts past maxJobs: the
    // other's writes since its listing are unseen, so with two writers the folder can end up to one
    // batch of (maxJobs - keepJobs) past maxJobs (a clean-clone run ended at 67 of 60), and two
    // removing at once may each leave one more.
    expect(kept).toBeLessThanOrEqual(limits.maxJobs + (limits.maxJobs - limits.keepJobs) + 2);
    expect(kept).toBeGreaterThanOrEqual(limits.keepJobs - 2); // two removing at once may each take one more
    // The last job of the process that ended last is the newest, and kept.
    expect([`a-${JOBS - 1}`, `b-${JOBS - 1}`]).toContain(h.entries()[0]!.id);
  });
});
