// The typed options of the `wes jobs` verbs (src/commands/jobs/*.ts, their shared flags in options.ts): a flag of another mode,
// a flag that needs one not given, two that exclude each other and a malformed value are each a
// usage error (exit 2) naming the flag, with nothing on stdout and no request to the service; the
// well-formed lines they guard still run, with what --download and --batch imply.
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { seenMatching, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';
import { quickWorkflow, readResultLines, writeBatch } from './batch-env.js';

describe('jobs options, declared once', () => {
  const ctx = useDevServer({ stepMs: 20 });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();
  const requests = () => seenMatching(ctx.server, /./);

  /** Runs each line and expects exit 2 naming `names` on stderr, nothing on stdout and no request. */
  async function refused(cases: Array<[string[], RegExp]>): Promise<void> {
    const before = requests();
    for (const [args, names] of cases) {
      const res = await wes(args);
      expect(res.code, `${args.join(' ')}\n${res.stderr}`).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(names);
      expect(res.stdout, args.join(' ')).toBe('');
    }
    expect(requests()).toBe(before);
  }

  it('jobs submit: batch-only flags without --batch, and one-workflow flags with it', async () => {
    const flow = writeTemp(dir(), imageWorkflow());
    const batch = writeBatch(dir(), 'modes.jsonl', [quickWorkflow('modes', 1)]);
    await refused([
      [['jobs', 'submit', flow, '--concurrency', '8', '--resume', 'r.jsonl'], /--concurrency only applies with --batch/],
      [['jobs', 'submit', flow, '--results', 'out.jsonl'], /--results only applies with --batch/],
      [['jobs', 'submit', flow, '--resume', 'r.jsonl'], /--resume only applies with --batch/],
      [['jobs', 'submit', flow, '--via', 'other:2'], /--via only applies with --batch/],
      [['jobs', 'submit', '--batch', batch, '--idempotency-key', 'k'], /'--idempotency-key <key>' cannot be used with option '--batch/],
      [['jobs', 'submit', '--batch', batch, '--convert'], /'--convert' cannot be used with option '--batch/],
      [['jobs', 'submit', '--batch', batch, '--cancel-on-interrupt'], /'--cancel-on-interrupt' cannot be used with option '--batch/],
      [['jobs', 'submit', flow, '--batch', batch], /either a workflow file or --batch/],
    ]);
  });

  it('jobs submit: --results naming the batch file itself (or a link to it) is refused, and the lines stay', async () => {
    const batch = writeBatch(dir(), 'own.jsonl', [quickWorkflow('own', 1)]);
    const lines = readFileSync(batch, 'utf8');
    const link = join(dir(), 'own-link.jsonl');
    symlinkSync(batch, link);
    await refused([
      [['jobs', 'submit', '--batch', batch, '--results', batch], /--results .*own\.jsonl is the batch file itself/],
      [['jobs', 'submit', '--batch', batch, '--results', link], /--results .*own-link\.jsonl is the batch file itself/],
    ]);
    expect(readFileSync(batch, 'utf8')).toBe(lines);
  });

  it('jobs submit: follow flags need a mode that follows; file flags need --download; definitions need --convert', async () => {
    const flow = writeTemp(dir(), imageWorkflow());
    await refused([
      [['jobs', 'submit', flow, '--interval', '2'], /--interval only applies with --wait or --download or --batch/],
      [['jobs', 'submit', flow, '--no-events'], /--no-events only applies with --wait/],
      [['jobs', 'submit', flow, '--cancel-on-interrupt'], /--cancel-on-interrupt only applies with --wait or --download/],
      [['jobs', 'submit', flow, '--wait', '--clobber'], /--clobber only applies with --download/],
      [['jobs', 'submit', flow, '--skip-existing'], /--skip-existing only applies with --download/],
      [['jobs', 'submit', flow, '--download', join(dir(), 'o'), '--clobber', '--skip-existing'], /cannot be used with option '--clobber'|cannot be used with option '--skip-existing'/],
      [['jobs', 'submit', flow, '--object-info', 'oi.json'], /--object-info only applies with --convert/],
      [['jobs', 'submit', flow, '--refresh'], /--refresh only applies with --convert/],
      [['jobs', 'submit', flow, '--convert', '--object-info', 'oi.json', '--refresh'], /'--object-info <file>' cannot be used with option '--refresh'/],
    ]);
  });

  it('jobs submit: malformed values name the flag and the rule', async () => {
    const flow = writeTemp(dir(), imageWorkflow());
    const batch = writeBatch(dir(), 'values.jsonl', [quickWorkflow('values', 1)]);
    await refused([
      [['jobs', 'submit', '--batch', batch, '--concurrency', '0'], /--concurrency <n>.*'0' is invalid.*from 1 to 256/],
      [['jobs', 'submit', '--batch', batch, '--concurrency', 'many'], /--concurrency <n>.*'many' is invalid/],
      [['jobs', 'submit', flow, '--wait', '--interval', 'soon'], /--interval <seconds>.*'soon' is invalid.*number of seconds from 0.05 to 3600, e.g. --interval 2/],
      [['jobs', 'submit', flow, '--wait', '--interval', '0.01'], /--interval <seconds>.*from 0.05/],
      [['jobs', 'submit', '--batch', batch, '--via', 'not a profile'], /--via not a profile: not a profile name or an http\(s\) URL/],
      [['jobs', 'submit', '--batch', batch, '--via', 'gpu:0'], /--via gpu:0: the concurrency must be a whole number from 1 to 256/],
      [['jobs', 'submit', flow, '--idempotency-key', ' '], /--idempotency-key <key>.*must be 1-255 printable ASCII characters/],
      [['jobs', 'submit', flow, '--download', ''], /--download <dir>.*must not be empty/],
    ]);
  });

  it('jobs submit: the shape of --set is checked before any file is read (a missing file is not what it names)', async () => {
    const missing = join(dir(), 'not-there.json');
    await refused([
      [['jobs', 'submit', missing, '--set', 'seed'], /--set "seed": missing "="/],
      [['jobs', 'submit', missing, '--set', 'seed=1'], /--set "seed=1": name a node and an input as NODE\.INPUT/],
      [['jobs', 'submit', '--batch', missing, '--set', '3.image=@'], /`@` must be followed by a file path/],
    ]);
  });

  it('the other jobs verbs: --wait-only flags of cancel, --download-only flags of watch, values of list, both file flags', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    await refused([
      [['jobs', 'cancel', id, '--interval', '1'], /--interval only applies with --wait/],
      [['jobs', 'cancel', id, '--no-events'], /--no-events only applies with --wait/],
      [['jobs', 'cancel', id, '--cancel-on-interrupt'], /--cancel-on-interrupt only applies with --wait/],
      [['jobs', 'watch', id, '--clobber'], /--clobber only applies with --download/],
      [['jobs', 'watch', id, '--interval', '-1'], /--interval <seconds>.*'-1' is invalid/],
      [['jobs', 'download', id, '--clobber', '--skip-existing'], /cannot be used with option/],
      [['jobs', 'list', '--status', 'done'], /--status <status>.*'done' is invalid.*queued, running/],
      [['jobs', 'list', '--limit', '0'], /--limit <n>.*from 1 to 10000/],
      [['jobs', 'list', '--limit', '1e3'], /--limit <n>.*'1e3' is invalid/],
    ]);
  });

  it('well-formed lines run: --download implies --wait; --batch takes --wait and the follow flags; cancel --wait follows', async () => {
    const out = mkdtempSync(join(dir(), 'dl-'));
    const flow = writeTemp(dir(), imageWorkflow({ steps: 1, prefix: 'implied' }));
    const implied = await wes(['jobs', 'submit', flow, '--download', out, '--skip-existing', '--interval', '0.05']);
    expect(implied.code, implied.stderr).toBe(0);
    expect(existsSync(join(out, 'implied_00001_.png'))).toBe(true);

    const batch = writeBatch(dir(), 'typed.jsonl', [quickWorkflow('typed', 1), quickWorkflow('typed', 2)]);
    const many = await wes(['jobs', 'submit', '--batch', batch, '--wait', '--concurrency', '2', '--interval', '0.05', '--no-events', '--via', `${ctx.server.url},1`]);
    expect(many.code, many.stderr).toBe(0);
    expect(readResultLines(many.stdout).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);

    const kept = { configDir: mkdtempSync(join(dir(), 'cfg-')) }; // one job history across the three commands
    const slow = writeTemp(dir(), imageWorkflow({ steps: 150 }));
    const submitted = await wes(['jobs', 'submit', slow], kept);
    expect(submitted.code, submitted.stderr).toBe(0);
    const canceled = await wes(['jobs', 'cancel', submitted.stdout.trim(), '--wait', '--interval', '0.05', '--no-events', '--json'], kept);
    expect(canceled.code, canceled.stderr).toBe(0);
    expect(canceled.stdout).toContain('"canceled"');

    const listed = await wes(['jobs', 'list', '--status', 'canceled', '--limit', '1', '--json'], kept);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((e) => e.id)).toEqual([submitted.stdout.trim()]);
  });
});
