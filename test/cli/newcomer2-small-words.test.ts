// More small words a newcomer tripped over (issue 38, item 8, second pass): the same bad JSON
// worded one way by every command that reads it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';

describe('small words, second pass (issue 38, item 8)', () => {
  const dev = useDevServer();
  const dir = mkdtempSync(join(tmpdir(), 'wes-words2-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = () => ({ WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! });
  const errorLine = (stderr: string) => stderr.split('\n').find((l) => l.startsWith('error: '));

  it.each([
    ['empty', '', 'empty.json:1:1: not valid JSON: expected a value, found end of input'],
    ['cut short', '{"prompt": "a cat"', 'cut.json:1:19: not valid JSON'],
  ])('%s: models run -d @FILE and jobs submit FILE word the same JSON error the same way', async (_, text, words) => {
    const file = join(dir, words.split(':')[0]!);
    writeFileSync(file, text);
    // In this process (the paths are absolute): the wording is the same function's either way.
    const run = await runWes(['models', 'run', 'dev/echo', '-d', `@${file}`], { env: env() });
    const submit = await runWes(['jobs', 'submit', file], { env: env() });
    expect([run.code, submit.code]).toEqual([2, 2]);
    expect(errorLine(run.stderr), run.stderr).toBe(errorLine(submit.stderr));
    expect(errorLine(run.stderr)).toContain(words.replace(/^[a-z]+\.json/, file));
    expect(run.stderr).toMatch(/hint: the model's input is a JSON object/);
  });

  it('bare wes: the commands come right after the description, the global options after them', async () => {
    const res = await runWes([], { env: env() });
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    const jobs = lines.findIndex((l) => /^  jobs\s/.test(l));
    expect(jobs, res.stdout).toBeGreaterThan(0);
    expect(jobs).toBeLessThan(10);
    expect(lines.findIndex((l) => l === 'Global options:')).toBeGreaterThan(lines.findIndex((l) => /^  help\s/.test(l)));
    expect(res.stdout).not.toMatch(/\n\n\n/);
    // A group's help keeps commander's order: its own options are few.
    const group = await runWes(['jobs', '--help'], { env: env() });
    expect(group.stdout.indexOf('Options:')).toBeLessThan(group.stdout.indexOf('Commands:'));
  });

  it('assets upload of a 0-byte file: uploaded, and said (also under --quiet); a file with bytes gets no such word', async () => {
    const empty = join(dir, 'blank.png');
    writeFileSync(empty, '');
    const res = await runWes(['assets', 'upload', empty, '--quiet'], { env: env() });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.stderr).toContain(`warning: ${empty} is empty (0 bytes)`);
    const full = join(dir, 'dot.png');
    writeFileSync(full, 'x');
    const fine = await runWes(['assets', 'upload', full], { env: env() });
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).not.toContain('empty');
  });
});
