// The job history file: newest first with the last status, torn lines skipped, bounded by
// rewriting (exclusive temp + rename), and never written through a planted link.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobHistory, stateDir } from '../../src/config/history.js';

const dirs: string[] = [];
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'wes-hist-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('JobHistory', () => {
  it('lists newest first with the last recorded status, per profile and base URL', () => {
    const dir = temp();
    const h = new JobHistory(dir, 'default', 'http://a');
    h.recordSubmitted('j1', 'queued', 'one.json', new Date('2026-01-01T00:00:00Z'));
    h.recordSubmitted('j2', 'queued', 'two.json', new Date('2026-01-01T00:01:00Z'));
    h.recordStatus('j1', 'succeeded', new Date('2026-01-01T00:02:00Z'));
    h.recordStatus('elsewhere', 'running');
    expect(h.entries().map((e) => [e.id, e.status, e.source])).toEqual([
      ['j2', 'queued', 'two.json'],
      ['j1', 'succeeded', 'one.json'],
    ]);
    expect(h.entries()[1]!.submitted_at).toBe('2026-01-01T00:00:00.000Z');
    expect(new JobHistory(dir, 'other', 'http://a').entries()).toEqual([]);
    expect(new JobHistory(dir, 'default', 'http://b').entries()).toEqual([]);
  });

  it('skips a torn last line (a crash mid-write) and keeps appending after it', () => {
    const dir = temp();
    const h = new JobHistory(dir, 'p', 'http://a');
    h.recordSubmitted('j1', 'queued', 'f.json');
    appendFileSync(h.path, '{"id":"j2","status":"que');
    expect(h.entries().map((e) => e.id)).toEqual(['j1']);
    h.recordSubmitted('j3', 'queued', 'g.json', new Date(Date.now() + 1000));
    expect(h.entries().map((e) => e.id)).toEqual(['j3', 'j1']);
  });

  it('stays bounded: past 2000 lines it keeps the newest 500 jobs, with no temp file left', () => {
    const dir = temp();
    const h = new JobHistory(dir, 'p', 'http://a');
    const base = Date.parse('2026-01-01T00:00:00Z');
    const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ id: `j${i}`, status: 'queued', submitted_at: new Date(base + i * 1000).toISOString(), seen_at: '', source: 's' }) + '\n');
    mkdirSync(dirname(h.path), { recursive: true });
    writeFileSync(h.path, lines.join(''));
    h.recordSubmitted('newest', 'queued', 's', new Date(base + 10_000_000));
    const entries = h.entries();
    expect(entries).toHaveLength(500);
    expect(entries[0]!.id).toBe('newest');
    expect(entries[1]!.id).toBe('j1999');
    expect(readFileSync(h.path, 'utf8').trim().split('\n')).toHaveLength(500);
    expect(readdirSync(dirname(h.path))).toEqual([h.path.split('/').pop()]);
  });

  it('does not write through a symbolic link planted as the history file or its folder', () => {
    const dir = temp();
    const h = new JobHistory(dir, 'p', 'http://a');
    const victim = join(temp(), 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    mkdirSync(dirname(h.path), { recursive: true });
    symlinkSync(victim, h.path);
    expect(() => h.recordSubmitted('j1', 'queued', 'f')).toThrow();
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');

    const dir2 = temp();
    const elsewhere = temp();
    symlinkSync(elsewhere, join(dir2, 'history'));
    expect(() => new JobHistory(dir2, 'p', 'http://a').recordSubmitted('j1', 'queued', 'f')).toThrow(/not a folder/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('lives in WES_STATE_DIR, else beside WES_CONFIG_DIR, else the XDG state folder', () => {
    expect(stateDir({ WES_STATE_DIR: '/s', WES_CONFIG_DIR: '/c' })).toBe('/s');
    expect(stateDir({ WES_CONFIG_DIR: '/c' })).toBe('/c/state');
    if (process.platform === 'linux') expect(stateDir({ XDG_STATE_HOME: '/x' })).toBe('/x/wes');
  });
});
