// The job history's store: one record file per job, newest first with the last status, bounded
// by removing the oldest records, never written through a planted link, and an older wes's
// single NDJSON file imported once.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync, existsSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobHistory, stateDir } from '../../src/config/history.js';
import { FakeClock } from '../helpers/fakes/clock.js';

const dirs: string[] = [];
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'wes-hist-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const records = (h: JobHistory) => readdirSync(h.path).filter((n) => !n.startsWith('.'));

describe('JobHistory', () => {
  it('lists newest first with the last recorded status, per profile and base URL', () => {
    const dir = temp();
    const h = new JobHistory(dir, 'default', 'http://a');
    h.recordSubmitted('j1', 'queued', 'one.json', new Date('2026-01-01T00:00:00Z'));
    h.recordSubmitted('j2', 'queued', 'two.json', new Date('2026-01-01T00:01:00Z'), { status_url: 'http://s/2' });
    h.recordStatus('j1', 'succeeded', new Date('2026-01-01T00:02:00Z'));
    h.recordStatus('elsewhere', 'running');
    expect(h.entries().map((e) => [e.id, e.status, e.source])).toEqual([
      ['j2', 'queued', 'two.json'],
      ['j1', 'succeeded', 'one.json'],
    ]);
    expect(h.entries()[1]).toMatchObject({ submitted_at: '2026-01-01T00:00:00.000Z', seen_at: '2026-01-01T00:02:00.000Z' });
    expect(h.entries()[0]!.links).toEqual({ status_url: 'http://s/2' });
    expect(records(h)).toHaveLength(2);
    expect(new JobHistory(dir, 'other', 'http://a').entries()).toEqual([]);
    expect(new JobHistory(dir, 'default', 'http://b').entries()).toEqual([]);
  });

  it('keeps the first submission time when a job is recorded as submitted again (the same idempotency key)', () => {
    const h = new JobHistory(temp(), 'p', 'http://a');
    h.recordSubmitted('j1', 'queued', 'a.json', new Date('2026-01-01T00:00:00Z'));
    h.recordSubmitted('j1', 'running', 'a.json', new Date('2026-01-01T00:05:00Z'));
    expect(h.entries()).toEqual([{ id: 'j1', status: 'running', submitted_at: '2026-01-01T00:00:00.000Z', seen_at: '2026-01-01T00:05:00.000Z', source: 'a.json' }]);
    expect(records(h)).toHaveLength(1);
  });

  it('finds ids by their start: odd characters, capitals, and ids too long for a file name', () => {
    const h = new JobHistory(temp(), 'p', 'http://a');
    const long = `eyJqIjogImIyN2E4ZTg4${'Lw_-'.repeat(70)}.nVKAPxgDsjgXx`;
    const ids = ['abc-1', 'ABC-2', 'a"b\\c/d%e', long];
    ids.forEach((id, i) => h.recordSubmitted(id, 'queued', 's', new Date(Date.UTC(2026, 0, 1, 0, i))));
    expect(h.idsStartingWith('abc')).toEqual(['abc-1']);
    expect(h.idsStartingWith('ABC')).toEqual(['ABC-2']);
    expect(h.idsStartingWith('a"b\\c/')).toEqual(['a"b\\c/d%e']);
    expect(h.idsStartingWith('eyJqIjog')).toEqual([long]);
    expect(h.idsStartingWith('').sort()).toEqual([...ids].sort());
    expect(h.entries().map((e) => e.id)).toEqual([...ids].reverse());
    h.recordStatus(long, 'succeeded');
    expect(h.entries()[0]).toMatchObject({ id: long, status: 'succeeded' });
    for (const name of records(h)) expect(Buffer.byteLength(name)).toBeLessThan(143);
  });

  it('skips a record that is not whole JSON (a crash before the data reached the disk) and a temp file never renamed', () => {
    const h = new JobHistory(temp(), 'p', 'http://a');
    h.recordSubmitted('j1', 'queued', 'f.json', new Date('2026-01-01T00:00:00Z'));
    writeFileSync(join(h.path, '001767225700000-j2.json'), '');
    writeFileSync(join(h.path, '.tmp-99-ab-1'), '{"id":"j3","status":"queued","submitted_at":"2026-01-01T00:00:00Z"}\n');
    expect(h.entries().map((e) => e.id)).toEqual(['j1']);
    h.recordSubmitted('j4', 'queued', 'g.json', new Date('2026-01-02T00:00:00Z'));
    expect(h.entries().map((e) => e.id)).toEqual(['j4', 'j1']);
  });

  it('stays bounded: past maxJobs it keeps the newest keepJobs, and sweeps temp files left by killed processes', () => {
    const clock = new FakeClock(Date.parse('2026-06-01T00:00:00Z'));
    const h = new JobHistory(temp(), 'p', 'http://a', { maxJobs: 200, keepJobs: 50 }, 'jobs', clock);
    const base = Date.parse('2026-01-01T00:00:00Z');
    const w = h.writer(10_000);
    for (let i = 0; i < 200; i++) w.recordSubmitted(`j${i}`, 'queued', 's', new Date(base + i * 1000));
    w.close();
    expect(records(h)).toHaveLength(200);
    writeFileSync(join(h.path, '.tmp-1-aa-1'), 'left by a killed process');
    const old = new Date(clock.now() - 3_600_000);
    utimesSync(join(h.path, '.tmp-1-aa-1'), old, old);
    writeFileSync(join(h.path, '.tmp-2-bb-1'), 'being written now');
    h.recordSubmitted('newest', 'queued', 's', new Date(base + 10_000_000));
    const entries = h.entries();
    expect(entries).toHaveLength(50);
    expect(entries[0]!.id).toBe('newest');
    expect(entries[1]!.id).toBe('j199');
    expect(readdirSync(h.path).filter((n) => n.startsWith('.'))).toEqual(['.tmp-2-bb-1']);
  });

  it('imports the single NDJSON file of an older wes once: every job with its last status, torn lines skipped', () => {
    const dir = temp();
    const h = new JobHistory(dir, 'p', 'http://a');
    const old = `${h.path}.ndjson`;
    mkdirSync(dirname(old), { recursive: true });
    const line = (o: object) => JSON.stringify(o) + '\n';
    writeFileSync(
      old,
      line({ id: 'j1', status: 'queued', submitted_at: '2026-01-01T00:00:00.000Z', seen_at: '2026-01-01T00:00:00.000Z', source: 'a.json' }) +
        line({ id: 'm1', status: 'IN_QUEUE', submitted_at: '2026-01-01T00:01:00.000Z', seen_at: '2026-01-01T00:01:00.000Z', source: 'dev/slow', links: { status_url: 'http://r/s' } }) +
        '\n' +
        line({ id: 'j1', status: 'succeeded', submitted_at: '2026-01-01T00:09:00.000Z', seen_at: '2026-01-01T00:03:00.000Z', source: 'a.json' }) +
        '{"id":"j2","status":"que',
    );
    // Read by a command that only reads (jobs list): imported there and then.
    expect(h.entries()).toEqual([
      { id: 'm1', status: 'IN_QUEUE', submitted_at: '2026-01-01T00:01:00.000Z', seen_at: '2026-01-01T00:01:00.000Z', source: 'dev/slow', links: { status_url: 'http://r/s' } },
      { id: 'j1', status: 'succeeded', submitted_at: '2026-01-01T00:00:00.000Z', seen_at: '2026-01-01T00:03:00.000Z', source: 'a.json' },
    ]);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(`${old}.imported`)).toBe(true);
    expect(records(h)).toHaveLength(2);
    expect(readdirSync(dirname(h.path)).filter((n) => n.startsWith('.'))).toEqual([]);
    // A later write goes to the records; the old file is never read again.
    h.recordStatus('j1', 'deleted', new Date('2026-01-02T00:00:00Z'));
    expect(new JobHistory(dir, 'p', 'http://a').entries().map((e) => [e.id, e.status])).toEqual([['m1', 'IN_QUEUE'], ['j1', 'deleted']]);
  });

  it('imports the older file on the first write too (a submit before any list)', () => {
    const dir = temp();
    const h = new JobHistory(dir, 'p', 'http://a');
    mkdirSync(dirname(h.path), { recursive: true });
    writeFileSync(`${h.path}.ndjson`, JSON.stringify({ id: 'old', status: 'succeeded', submitted_at: '2026-01-01T00:00:00.000Z', seen_at: '2026-01-01T00:00:00.000Z', source: 'a.json' }) + '\n');
    new JobHistory(dir, 'p', 'http://a').recordSubmitted('new', 'queued', 'b.json', new Date('2026-02-01T00:00:00Z'));
    expect(h.entries().map((e) => e.id)).toEqual(['new', 'old']);
  });

  it('does not write through a symbolic link planted as a record or as its folder', () => {
    const dir = temp();
    const h = new JobHistory(dir, 'p', 'http://a');
    h.recordSubmitted('j0', 'queued', 'f', new Date('2026-01-01T00:00:00Z'));
    const victim = join(temp(), 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    const planted = join(h.path, '001767225600000-j1.json');
    symlinkSync(victim, planted);
    expect(h.entries().map((e) => e.id)).toEqual(['j0']);
    h.recordSubmitted('j1', 'queued', 'f', new Date('2026-01-01T00:00:00Z'));
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
