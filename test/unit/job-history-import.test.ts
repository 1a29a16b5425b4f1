// An older wes's single-file history (NDJSON, a line per change) imported into the records
// (src/config/history-import.ts), then given a status: what the records hold must be what folding
// the old file line by line gives (a job's later line over its earlier ones, its first submission
// time kept), checked on random histories: ids with `"` and `\` (SAFE_ID allows both), a job's
// several lines, sources with backslashes (Windows paths), an id written with a \u escape, blank
// and torn lines, jobs not in the history.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobHistory, type HistoryEntry } from '../../src/config/history.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A history whose older single file holds `text`, not yet imported. */
function oldHistory(text: string): JobHistory {
  const dir = mkdtempSync(join(tmpdir(), 'wes-hist-import-'));
  dirs.push(dir);
  const h = new JobHistory(dir, 'default', 'http://a');
  mkdirSync(dirname(h.path), { recursive: true });
  writeFileSync(`${h.path}.ndjson`, text);
  return h;
}

/** The old format's reading, written out here line by line: the later line wins, the first submission time stays. */
function fold(text: string): Map<string, HistoryEntry> {
  const byId = new Map<string, HistoryEntry>();
  for (const line of text.split('\n')) {
    let v: Partial<HistoryEntry>;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v?.id !== 'string' || typeof v.status !== 'string' || typeof v.submitted_at !== 'string') continue;
    const before = byId.get(v.id);
    byId.set(v.id, { id: v.id, status: v.status, submitted_at: before?.submitted_at ?? v.submitted_at, seen_at: v.seen_at ?? v.submitted_at, source: v.source ?? '' });
  }
  return byId;
}

/** A small seeded generator, so a failure names the case that broke. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const ID_PARTS = ['a', 'b', 'job-1', '7d7c0b7e', '"', '\\', 'ab"c', 'x\\y', '-', 'ä', 'A'];
const SOURCES = ['flow.json', 'C:\\flows\\x.json', 'batch jobs.jsonl:3', '-', 'say "hi".json'];
const STATUSES = ['queued', 'running', 'succeeded', 'failed'];

function line(e: Partial<HistoryEntry>): string {
  return JSON.stringify(e) + '\n';
}

describe('an older history imported, then given a status', () => {
  it('holds what folding every line gives, on 150 random histories', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const next = random(seed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
      const ids = Array.from({ length: 4 }, () => pick(ID_PARTS) + pick(ID_PARTS));
      let text = '';
      for (let i = 0; i < 12; i++) {
        const at = `2026-01-01T00:${String(10 + i).padStart(2, '0')}:00.000Z`;
        const roll = next();
        if (roll < 0.08) text += '\n';
        else if (roll < 0.14) text += '{"id":"' + pick(ids) + '","sta\n'; // a torn line, then more
        else if (roll < 0.22) text += line({ id: pick(ids), status: pick(STATUSES), submitted_at: at, seen_at: at, source: 'flow.json' }).replace(/"id":"(.)/, (_all, c: string) => `"id":"\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`); // written by hand
        else text += line({ id: pick(ids), status: pick(STATUSES), submitted_at: at, seen_at: at, source: pick(SOURCES) });
      }
      const expected = fold(text);
      const h = oldHistory(text);
      const id = next() < 0.85 ? pick(ids) : 'not-there';
      const now = new Date('2026-02-02T00:00:00Z');
      h.recordStatus(id, 'canceled', now);
      const known = expected.get(id);
      if (known && known.status !== 'canceled') expected.set(id, { ...known, status: 'canceled', seen_at: now.toISOString() });
      const byId = new Map(new JobHistory(dirname(dirname(h.path)), 'default', 'http://a').entries().map((e) => [e.id, e]));
      expect(byId, `seed ${seed}`).toEqual(expected);
      for (const e of expected.values()) expect(h.idsStartingWith(e.id.slice(0, 2)), `seed ${seed}`).toContain(e.id);
    }
  });
});

describe('recordStatus of an empty id', () => {
  it('changes nothing (no such job)', () => {
    const h = oldHistory(line({ id: 'seed', status: 'queued', submitted_at: '2026-01-01T00:00:00.000Z', seen_at: '2026-01-01T00:00:00.000Z', source: 's' }));
    h.recordStatus('', 'succeeded', new Date('2026-01-02T00:00:00Z'));
    expect(h.entries().map((e) => [e.id, e.status])).toEqual([['seed', 'queued']]);
  });
});
