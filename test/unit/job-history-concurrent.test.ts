// The job history with two wes processes appending at once while the file is rewritten (bounded
// by compaction) again and again: no job either process recorded is lost, every job keeps the
// last status its process recorded, and every line of the file is whole. The processes are real
// (node running history.ts bundled by esbuild), so their appends and rewrites truly interleave.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobHistory } from '../../src/config/history.js';

const JOBS = 300;
const LIMITS = { maxLines: 120, keepJobs: 1_000_000 };
let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wes-hist-two-'));
  bundle = join(dir, 'history.mjs');
  await build({ entryPoints: [fileURLToPath(new URL('../../src/config/history.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One process: JOBS jobs, each submitted through a batch writer or alone, then given a final status. */
function appender(state: string, name: string): Promise<number> {
  const script = `
    import { JobHistory } from ${JSON.stringify(bundle)};
    const h = new JobHistory(${JSON.stringify(state)}, 'p', 'http://a', ${JSON.stringify(LIMITS)});
    const w = h.writer(5);
    for (let i = 0; i < ${JOBS}; i++) {
      const id = '${name}-' + i;
      if (i % 3 === 0) h.recordSubmitted(id, 'queued', 'one.json');
      else w.recordSubmitted(id, 'queued', 'batch f:' + i);
      if (i % 2 === 0) w.append({ id, status: 'succeeded', submitted_at: new Date().toISOString(), seen_at: new Date().toISOString(), source: 'x' });
    }
    w.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
}

describe('JobHistory with two processes appending at once', () => {
  it('loses no job and no status while both append and rewrite the file', async () => {
    const state = join(dir, 'state');
    expect(await Promise.all([appender(state, 'a'), appender(state, 'b')])).toEqual([0, 0]);
    const h = new JobHistory(state, 'p', 'http://a', LIMITS);
    const text = readFileSync(h.path, 'utf8');
    for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
    const byId = new Map(h.entries().map((e) => [e.id, e.status]));
    for (const name of ['a', 'b']) {
      for (let i = 0; i < JOBS; i++) expect(byId.get(`${name}-${i}`), `${name}-${i}`).toBe(i % 2 === 0 ? 'succeeded' : 'queued');
    }
    expect(byId.size).toBe(2 * JOBS);
    // Rewritten along the way (each process wrote 1.5 lines a job, 900 lines, past 120 many times).
    expect(text.split('\n').filter(Boolean).length).toBeLessThan(2 * JOBS * 1.5);
    expect(readdirSync(dirname(h.path))).toEqual([h.path.split('/').pop()]);
  });

  it('keeps a line written while a slow rewrite (past 2 s, as on a loaded disk) had read the file without it', async () => {
    const state = join(dir, 'slow');
    const h = new JobHistory(state, 'p', 'http://a', LIMITS);
    h.recordSubmitted('before', 'queued', 's');
    const before = readFileSync(h.path, 'utf8');
    writeFileSync(`${h.path}.lock`, '');
    // The rewriter has read the file (only `before`) and takes 2.5 s to put its copy in place.
    const rewriter = spawn(process.execPath, ['-e', `
      const fs = require('node:fs');
      setTimeout(() => {
        fs.writeFileSync(${JSON.stringify(`${h.path}.new`)}, ${JSON.stringify(before)});
        fs.renameSync(${JSON.stringify(`${h.path}.new`)}, ${JSON.stringify(h.path)});
        fs.unlinkSync(${JSON.stringify(`${h.path}.lock`)});
      }, 2500);`], { stdio: 'ignore' });
    const ended = new Promise((resolve) => rewriter.on('exit', resolve));
    h.recordSubmitted('during', 'queued', 's'); // blocks until the rewrite is over
    expect(await ended).toBe(0);
    expect(h.entries().map((e) => e.id).sort()).toEqual(['before', 'during']);
  });

  it('takes over a rewrite lock left by a process that died mid-rewrite', () => {
    const state = join(dir, 'locks');
    const h = new JobHistory(state, 'p', 'http://a', { maxLines: 10, keepJobs: 5 });
    mkdirSync(dirname(h.path), { recursive: true });
    writeFileSync(`${h.path}.lock`, '');
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${h.path}.lock`, old, old);
    for (let i = 0; i < 24; i++) h.recordSubmitted(`j${i}`, 'queued', 's', new Date(Date.UTC(2026, 0, 1, 0, i)));
    expect(h.entries().length).toBeLessThanOrEqual(10);
    expect(h.entries()[0]!.id).toBe('j23');
    expect(readdirSync(dirname(h.path))).toEqual([h.path.split('/').pop()]);
  });
});
