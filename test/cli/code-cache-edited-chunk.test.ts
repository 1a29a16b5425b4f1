// A built chunk edited in place after its build (patch-package, a hand fix) keeps the build's id,
// and V8 checks a code cache against its source by length alone: the edited chunk must run as
// edited, not from the cache its old text made (src/runtime/code-cache.ts, readNewerThan).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'wes-edited-chunk-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function help(): string {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: work, WES_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
  const res = spawnSync(process.execPath, [join(work, 'bin', 'wes.js'), '--help'], { env, encoding: 'utf8', timeout: 60_000 });
  expect(res.status, res.stderr).toBe(0);
  return res.stdout;
}

describe('a chunk edited after its build', () => {
  it('runs as edited, though the first run cached its code', () => {
    // A copy of the built package: the edit must not touch the dist/ other tests run. Without the
    // single executable (110 MB once sea-executable.test.ts has built it), which the package leaves out.
    cpSync(join(repo, 'bin'), join(work, 'bin'), { recursive: true });
    cpSync(join(repo, 'dist'), join(work, 'dist'), { recursive: true, filter: (from) => from !== join(repo, 'dist', 'sea') });
    const before = 'print JSON (NDJSON for streams)';
    const after = 'PRINT JSON (NDJSON FOR STREAMS)';
    expect(help()).toContain(before);
    expect(readdirSync(join(work, 'config', 'code-cache'))).toHaveLength(1);
    const chunks = join(work, 'dist', 'chunks');
    const holders = readdirSync(chunks).filter((name) => readFileSync(join(chunks, name), 'utf8').includes(before));
    expect(holders).toHaveLength(1);
    const file = join(chunks, holders[0]!);
    writeFileSync(file, readFileSync(file, 'utf8').replace(before, after)); // the same length
    const later = Date.now() / 1000 + 5; // past the cache files, whatever the file system's timestamp grain
    utimesSync(file, later, later);
    expect(help()).toContain(after);
  });
});
