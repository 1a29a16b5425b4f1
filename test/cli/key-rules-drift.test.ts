// The key rules are stated once (src/key-rules.ts) and the manual keeps to them (issue 42): the
// README and `jobs submit --help` say each rule as stated, the reuse hint says what is true, and no
// help text, hint or README sentence keeps a word of the designs the rules replaced.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_BATCH_FRESH, KEY_NEW_ONLY_WHEN_NONE, KEY_RULES, KEY_SINGLE_USE, keyReuseHint } from '../../src/key-rules.js';
import { hintFor } from '../../src/render/error.js';
import { ApiError } from '../../src/errors.js';
import { runWes } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** The README but its changelog, which may quote what earlier versions said. */
function manual(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return flat(readme.slice(0, readme.indexOf('\n## Changelog')));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && e.name !== 'manifest.ts' ? [join(dir, e.name)] : []));
}

/** What the old designs said: keys derived from lines and replayed, POSTs retried by their key, pollers per engine. */
const STALE = [
  /derived from the file, the line number/,
  /returns the job the lost attempt made/,
  /already used with a different body/,
  /same on every retry, so a retry never creates/,
  /makes a POST retryable/,
  /submits are idempotent/,
  /a key used before finds the job it made/,
  /its journal after a crash/,
  /one poller per engine/i,
  /has no key, so it is never repeated/,
  /\{job_id, log, reason\}/,
  /batch line keys/,
];

describe('the key rules, stated once', () => {
  it('the README says every rule as src/key-rules.ts states it', () => {
    const text = manual();
    for (const rule of KEY_RULES) expect(text, rule).toContain(flat(rule));
  });

  it('jobs submit --help states the single-use rule and the fresh keys of a batch run', async () => {
    const help = flat((await runWes(['jobs', 'submit', '--help'])).stdout);
    expect(help).toContain(flat(KEY_SINGLE_USE));
    expect(help).toContain(flat(KEY_BATCH_FRESH));
  });

  it('the reuse hint of the job API: refused whatever the body; find the job; a new key only once none was made', () => {
    const hint = hintFor(new ApiError('key used', { status: 422, code: 'idempotency_key_reuse', origin: 'jobs' }))!;
    expect(hint).toBe(keyReuseHint());
    expect(hint).toContain('whatever the body');
    expect(hint).toContain('wes jobs find --key');
    expect(hint).toContain(KEY_NEW_ONLY_WHEN_NONE);
  });

  it('no help text, hint, comment or README sentence keeps a word of the old designs', () => {
    const texts: Array<[string, string]> = [['README.md', manual()], ...sources(join(ROOT, 'src')).map((file) => [file, flat(readFileSync(file, 'utf8'))] as [string, string])];
    const found = texts.flatMap(([file, text]) => STALE.filter((re) => re.test(text)).map((re) => `${file}: ${re}`));
    expect(found).toEqual([]);
  });
});
