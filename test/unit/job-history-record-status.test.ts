// recordStatus reads only the lines that can be the job's (src/config/history.ts, entryOf): what it
// appends must be what folding the whole file gives. Checked against entries() (the whole fold) on
// random histories: ids with `"` and `\` (SAFE_ID allows both), a job's several lines, sources
// with backslashes (Windows paths), an id written with a \u escape, blank and torn lines, jobs not
// in the history.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobHistory, type HistoryEntry } from '../../src/config/history.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function history(): JobHistory {
  const dir = mkdtempSync(join(tmpdir(), 'wes-hist-status-'));
  dirs.push(dir);
  const h = new JobHistory(dir, 'default', 'http://a');
  h.recordSubmitted('seed', 'queued', 'seed.json', new Date('2026-01-01T00:00:00Z')); // makes the folder and file
  return h;
}

/** A small seeded generator, so a failure names the case that broke. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const ID_PARTS = ['a', 'b', 'job-1', '7d7c0b7e', '"', '\\', 'ab"c', 'x\\y', '-', 'ä'];
const SOURCES = ['flow.json', 'C:\\flows\\x.json', 'batch jobs.jsonl:3', '-', 'say "hi".json'];
const STATUSES = ['queued', 'running', 'succeeded', 'failed'];

function line(e: Partial<HistoryEntry>): string {
  return JSON.stringify(e) + '\n';
}

describe('recordStatus against the whole fold', () => {
  it('appends what folding every line gives, on 300 random histories', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
      const ids = Array.from({ length: 4 }, () => pick(ID_PARTS) + pick(ID_PARTS));
      const h = history();
      let text = '';
      for (let i = 0; i < 12; i++) {
        const at = `2026-01-01T00:${String(10 + i).padStart(2, '0')}:00.000Z`;
        const roll = next();
        if (roll < 0.08) text += '\n';
        else if (roll < 0.14) text += '{"id":"' + pick(ids) + '","sta\n'; // a torn line, then more
        else if (roll < 0.22) text += line({ id: pick(ids), status: pick(STATUSES), submitted_at: at, seen_at: at, source: 'flow.json' }).replace(/"id":"(.)/, (_all, c: string) => `"id":"\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`); // written by hand
        else text += line({ id: pick(ids), status: pick(STATUSES), submitted_at: at, seen_at: at, source: pick(SOURCES) });
      }
      appendFileSync(h.path, text);
      const id = next() < 0.85 ? pick(ids) : 'not-there';
      const known = h.entries().find((e) => e.id === id);
      const before = readFileSync(h.path, 'utf8');
      const now = new Date('2026-02-02T00:00:00Z');
      h.recordStatus(id, 'canceled', now);
      const after = readFileSync(h.path, 'utf8');
      if (!known || known.status === 'canceled') expect(after, `seed ${seed}`).toBe(before);
      else expect(after, `seed ${seed}`).toBe(before + line({ ...known, status: 'canceled', seen_at: now.toISOString() }));
    }
  });

  it('finds a job whose lines hold escaped characters, and one in a file with Windows paths', () => {
    const h = history();
    writeFileSync(h.path, line({ id: 'a"b\\c', status: 'queued', submitted_at: '2026-01-01T00:00:00.000Z', seen_at: '2026-01-01T00:00:00.000Z', source: 'C:\\flows\\x.json' }));
    h.recordStatus('a"b\\c', 'running', new Date('2026-01-02T00:00:00Z'));
    expect(h.entries()).toEqual([{ id: 'a"b\\c', status: 'running', submitted_at: '2026-01-01T00:00:00.000Z', seen_at: '2026-01-02T00:00:00.000Z', source: 'C:\\flows\\x.json' }]);
  });
});

describe('recordStatus of an empty id', () => {
  it('returns (no such job) instead of searching every line for the empty string forever', () => {
    const h = history();
    h.recordStatus('', 'succeeded', new Date('2026-01-02T00:00:00Z'));
    expect(h.entries().map((e) => e.id)).toEqual(['seed']);
  });
});
