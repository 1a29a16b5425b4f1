// What a person sees on a terminal, checked in-process on buffers that say they are a TTY (the
// tmux tests see the same on a real screen where tmux exists): the spinner draws and ends in one
// line, colour appears only where it is allowed, and tables fit 80 columns without cutting an id.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes, tempConfigDir, type TerminalStreams } from '../helpers/cli.js';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';

const SPINNER = /[\u2800-\u28ff]/;
const ESCAPE = /\u001b\[/;
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const visible = (text: string) => text.replace(ANSI, '');

const dev = useDevServer({ stepMs: 10 });
let dir: string;
let config: { dir: string; cleanup: () => void };

/** wes against the dev-server in a terminal's environment, with the streams `tty` says are a terminal. */
function onTerminal(argv: string[], tty: TerminalStreams, extraEnv: Record<string, string> = {}) {
  const env = { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey!, WES_ROUTER_URL: dev.server.url, WES_ROUTER_TOKEN: dev.server.apiKey!, ...extraEnv };
  return runWes(argv, { terminal: tty, configDir: config.dir, env });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wes-tty-'));
  config = tempConfigDir();
  writeFileSync(join(dir, 'flow.json'), JSON.stringify(imageWorkflow({ steps: 30 })));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  config.cleanup();
});

describe('on a terminal', () => {
  it('jobs watch draws a spinner on stderr, redrawn in place, and ends in one line; stdout carries no escape', async () => {
    const submitted = await runWes(['jobs', 'submit', join(dir, 'flow.json'), '--quiet'], { env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! } });
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.trim();
    const run = await onTerminal(['jobs', 'watch', id, '--interval', '0.05'], { stderrTTY: true, stdoutTTY: false });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(SPINNER);
    expect(run.stderr).toMatch(/\u001b\[1G\u001b\[0K/); // the line is cleared and redrawn, not appended
    expect(visible(run.stderr).match(/succeeded in/g)).toHaveLength(1);
    expect(run.stdout).not.toMatch(ESCAPE);
  });

  it('the same watch piped is one plain line per change, with no spinner and no escape', async () => {
    const submitted = await runWes(['jobs', 'submit', join(dir, 'flow.json'), '--quiet'], { env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! } });
    const run = await onTerminal(['jobs', 'watch', submitted.stdout.trim(), '--interval', '0.05'], {});
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(SPINNER);
    expect(run.stderr).not.toMatch(ESCAPE);
    expect(run.stderr).toMatch(/succeeded in/);
  });

  it('colours an error on a terminal, and not with NO_COLOR, --no-color, CLICOLOR=0 or when piped', async () => {
    const argv = ['jobs', 'get', '00000000-0000-4000-8000-000000000000'];
    const coloured = await onTerminal(argv, { stderrTTY: true, stdoutTTY: true });
    expect(coloured.code).toBe(5);
    expect(coloured.stderr).toMatch(/\u001b\[31merror:/);
    for (const [extra, flags] of [[{ NO_COLOR: '1' }, []], [{}, ['--no-color']], [{ CLICOLOR: '0' }, []]] as const) {
      const plain = await onTerminal([...argv, ...flags], { stderrTTY: true, stdoutTTY: true }, extra);
      expect(plain.stderr, JSON.stringify(extra) + flags.join(' ')).toMatch(/^error: /m);
      expect(plain.stderr).not.toMatch(ESCAPE);
    }
    const piped = await onTerminal(argv, {});
    expect(piped.stderr).toMatch(/^error: /m);
    expect(piped.stderr).not.toMatch(ESCAPE);
  });

  it('models list fits 80 columns with a header, and every id is shown whole', async () => {
    const listed = await onTerminal(['models', 'list', '--limit', '100', '--json'], {});
    const ids = (JSON.parse(listed.stdout) as { data: Array<{ id: string }> }).data.map((m) => m.id);
    expect(ids.length).toBeGreaterThan(5);
    const run = await onTerminal(['models', 'list', '--limit', '100'], { stdoutTTY: true, stderrTTY: true, columns: 80 });
    expect(run.code, run.stderr).toBe(0);
    const lines = visible(run.stdout).trimEnd().split('\n');
    // PROVIDER and MODEL repeat the id: they are the columns left out when 80 columns are too few.
    expect(lines[0]).toMatch(/^ID\s+(PROVIDER\s+)?(MODEL\s+)?CHARGED IF REFUSED$/);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    const shown = lines.slice(1).map((l) => l.split(/\s+/)[0]);
    expect(shown.join("\n")).toEqual(ids.join("\n"));
  });

  it('jobs get fits 80 columns, its fields and outputs table included', async () => {
    const done = await runWes(['jobs', 'submit', join(dir, 'flow.json'), '--wait', '--quiet'], { env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! } });
    expect(done.code, done.stderr).toBe(0);
    const id = done.stdout.trim();
    const run = await onTerminal(['jobs', 'get', id], { stdoutTTY: true, stderrTTY: true, columns: 80 });
    expect(run.code, run.stderr).toBe(0);
    const lines = visible(run.stdout).split('\n');
    expect(lines.some((l) => l.includes(id))).toBe(true);
    expect(run.stdout).toMatch(ESCAPE); // bold field names: colour is on for a terminal
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
  });
});

describe('on a terminal, more of what a person sees', () => {
  it('submit --wait --download: spinner while it runs, one ✓ line at the end, saved paths plain on stdout', async () => {
    const out = join(dir, 'downloaded');
    const run = await onTerminal(['jobs', 'submit', join(dir, 'flow.json'), '--wait', '--download', out, '--interval', '0.05'], { stdoutTTY: true, stderrTTY: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(SPINNER);
    expect(run.stderr).toMatch(/\u001b\[32m✓/); // a green tick, the one every confirmation uses: colour is on for this terminal
    expect(visible(run.stderr).match(/succeeded in/g)).toHaveLength(1);
    expect(visible(run.stderr)).toMatch(/\+ wes_00001_\.png \(image,/); // committed outputs are lines above the spinner
    expect(run.stdout).not.toMatch(ESCAPE);
    const [id, ...saved] = run.stdout.trim().split('\n');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(saved.length).toBeGreaterThan(0);
    for (const path of saved) expect(path.startsWith(out), path).toBe(true);
  });

  it('a failing job ends its spinner with a cross: coloured, or a plain ✗ with NO_COLOR', async () => {
    const failing = join(dir, 'fail.json');
    writeFileSync(failing, JSON.stringify({ '1': { class_type: 'Fail', inputs: { message: 'broken on purpose' } }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'never' } } }));
    const coloured = await onTerminal(['jobs', 'submit', failing, '--wait', '--interval', '0.05'], { stderrTTY: true });
    expect(coloured.code).toBe(3);
    expect(coloured.stderr).toMatch(SPINNER);
    expect(coloured.stderr).toMatch(/\u001b\[31m✗/);
    const plain = await onTerminal(['jobs', 'submit', failing, '--wait', '--interval', '0.05'], { stderrTTY: true }, { NO_COLOR: '1' });
    expect(plain.code).toBe(3);
    expect(plain.stderr).toMatch(SPINNER);
    expect(visible(plain.stderr)).toMatch(/✗ job .* failed .*broken on purpose/);
    expect(plain.stderr).not.toMatch(/\u001b\[3\dm/);
  });

  it('no spinner on a terminal with CI set, TERM=dumb, --quiet or 0 columns: plain lines instead', async () => {
    for (const [extra, flags, columns] of [[{ CI: 'true' }, [], 80], [{ TERM: 'dumb' }, [], 80], [{}, ['--quiet'], 80], [{}, [], 0]] as const) {
      const run = await onTerminal(['jobs', 'submit', join(dir, 'flow.json'), '--wait', '--interval', '0.05', ...flags], { stderrTTY: true, columns }, extra);
      const what = `${JSON.stringify(extra)} ${flags.join(' ')} columns ${columns}`;
      expect(run.code, `${what}: ${run.stderr}`).toBe(0);
      expect(run.stderr, what).not.toMatch(SPINNER);
      expect(run.stderr, what).not.toMatch(/\u001b\[1G/);
      if (flags.length === 0) expect(run.stderr, what).toMatch(/succeeded in/);
    }
  });

  it('doctor: an 80-column table with a header on a terminal; tab-separated plain statuses when piped', async () => {
    const onTty = await onTerminal(['doctor'], { stdoutTTY: true, stderrTTY: true, columns: 80 });
    const lines = visible(onTty.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CHECK\s+FAMILY\s+STATUS\s+DETAIL$/);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(onTty.stdout).toMatch(ESCAPE);
    const piped = await onTerminal(['doctor'], {});
    expect(piped.code).toBe(onTty.code);
    expect(piped.stdout).not.toMatch(ESCAPE);
    expect(piped.stdout).not.toMatch(/^CHECK/m);
    for (const line of piped.stdout.trimEnd().split('\n')) expect(line.split('\t')[2], line).toMatch(/^(pass|warn|fail|skip)$/);
  });

  it('jobs list: ids whole even at 40 columns, ages at 80; ISO times, tab-separated, when piped', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const run = await onTerminal(['jobs', 'submit', join(dir, 'flow.json'), '--quiet'], {});
      expect(run.code, run.stderr).toBe(0);
      ids.push(run.stdout.trim());
    }
    // At 40 columns the ids are their first 8 characters (which pick the job), so the rest fits uncut (issue 38, item 7).
    const narrow = await onTerminal(['jobs', 'list'], { stdoutTTY: true, stderrTTY: true, columns: 40 });
    expect(narrow.code, narrow.stderr).toBe(0);
    const lines = visible(narrow.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+SUBMITTED\s+SOURCE$/);
    for (const id of ids) expect(lines.some((line) => line.startsWith(`${id.slice(0, 8)} `)), `${id} in:\n${lines.join('\n')}`).toBe(true);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(40);
    const wide = await onTerminal(['jobs', 'list'], { stdoutTTY: true, stderrTTY: true, columns: 80 });
    expect(visible(wide.stdout)).toMatch(/ \d+ s ago /);
    for (const line of visible(wide.stdout).split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    const piped = await onTerminal(['jobs', 'list'], {});
    const rows = piped.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(ids));
    for (const row of rows) expect(row[2], row.join(' | ')).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
