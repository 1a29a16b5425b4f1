// The bench's runner (bench/lib/measure.mjs): every timed program is started by one small spawning
// process (bench/lib/spawner.cjs), not by the bench, whose memory would otherwise add to each run's
// wall time. What a case reads back from a run: exit code, signal, output, GNU time's figures.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error the bench is plain JavaScript
import { measure as measureRun, removeScratch, useGnuTime } from '../../bench/lib/measure.mjs';

interface Measured {
  code: number;
  signal?: string | null;
  wallMs: number;
  stdout: string;
  stderr: string;
  error?: string;
  maxRssMb?: number;
  cpuMs?: number;
}
const measure = measureRun as (command: string, args: string[], opts?: { env?: NodeJS.ProcessEnv; cwd?: string; stdout?: string; timeoutMs?: number }) => Promise<Measured>;
const node = (source: string): [string, string[]] => [process.execPath, ['-e', source]];
const dir = mkdtempSync(join(tmpdir(), 'wes-measure-test-'));
const MEASURE = new URL('../../bench/lib/measure.mjs', import.meta.url).href;

/** Runs `body` as a module of its own process, with `measure` imported: nothing else keeps that process alive. */
function benchScript(body: string) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', `import { measure } from ${JSON.stringify(MEASURE)};\n${body}`], { encoding: 'utf8', timeout: 30_000 });
}
const GNU_TIME = '/usr/bin/time';

afterAll(() => {
  useGnuTime(null);
  removeScratch();
  rmSync(dir, { recursive: true, force: true });
});

describe('bench measure()', () => {
  it("gives a run's exit code, its output and its wall time; runs in flight at once each get their own answer", async () => {
    const [a, b] = await Promise.all([
      measure(...node("process.stdout.write('out-a'); process.stderr.write('err-a'); process.exitCode = 3")),
      measure(...node("process.stdout.write('out-b')")),
    ]);
    expect(a).toMatchObject({ code: 3, stdout: 'out-a', stderr: 'err-a' });
    expect(b).toMatchObject({ code: 0, stdout: 'out-b', stderr: '' });
    expect(a.wallMs).toBeGreaterThan(0);
  });

  it('passes the environment and working folder; writes stdout to a file when given one', async () => {
    const file = join(dir, 'out.txt');
    const run = await measure(...node("process.stdout.write(process.env.WES_X + ' ' + process.cwd())"), { env: { ...process.env, WES_X: 'seen' }, cwd: dir, stdout: file });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(file, 'utf8')).toBe(`seen ${dir}`);
  });

  it('kills a run past its time limit, and says when a program cannot start', async () => {
    const slow = await measure(...node('setTimeout(() => {}, 60_000)'), { timeoutMs: 200 });
    expect(slow.signal).toBe('SIGKILL');
    expect(slow.code).toBe(128);
    const missing = await measure(join(dir, 'no-such-program'), []);
    expect(missing.code).toBe(-1);
    expect(missing.stderr).toMatch(/ENOENT/);
  });

  it('a stdout path that cannot be opened fails that run alone', async () => {
    const [bad, good] = await Promise.all([
      measure(...node('0'), { stdout: join(dir, 'no-such-folder', 'out.txt') }),
      measure(...node("setTimeout(() => process.stdout.write('still here'), 200)")),
    ]);
    expect(bad).toMatchObject({ code: -1 });
    expect(bad.error).toMatch(/ENOENT/);
    expect(good).toMatchObject({ code: 0, stdout: 'still here' });
  });

  it('keeps a bench that awaits a run alive until it is answered, then lets it end', () => {
    const bench = benchScript(`const run = await measure(process.execPath, ['-e', "setTimeout(() => process.stdout.write('late'), 300)"]);\nconsole.log(JSON.stringify({ code: run.code, stdout: run.stdout }));`);
    expect(bench.error).toBeUndefined();
    expect(bench.status, bench.stderr).toBe(0);
    expect(JSON.parse(bench.stdout)).toEqual({ code: 0, stdout: 'late' });
  });

  it('a spawning process that dies fails the runs in flight, and the next run starts another', () => {
    // Without GNU time the program's parent is the spawning process: the program kills it.
    const bench = benchScript(
      [
        `const lost = await measure(process.execPath, ['-e', "process.kill(process.ppid, 'SIGKILL'); setTimeout(() => {}, 1000)"]);`,
        `const next = await measure(process.execPath, ['-e', "process.stdout.write('again')"]);`,
        'console.log(JSON.stringify({ lost: { code: lost.code, error: lost.error }, next: { code: next.code, stdout: next.stdout } }));',
      ].join('\n'),
    );
    expect(bench.status, bench.stderr).toBe(0);
    expect(JSON.parse(bench.stdout)).toEqual({ lost: { code: -1, error: 'spawner' }, next: { code: 0, stdout: 'again' } });
  });

  it.skipIf(!existsSync(GNU_TIME))('reads peak RSS and CPU time from GNU time, and leaves none of its reports behind', async () => {
    useGnuTime(GNU_TIME);
    try {
      const run = await measure(...node('globalThis.keep = Buffer.alloc(64 * 1024 * 1024, 1)'));
      expect(run.code).toBe(0);
      expect(run.maxRssMb).toBeGreaterThan(64);
      expect(run.cpuMs).toBeGreaterThanOrEqual(0);
      const reports = readdirSync(tmpdir())
        .filter((name) => name.startsWith('wes-bench-measure-'))
        .flatMap((name) => readdirSync(join(tmpdir(), name)));
      expect(reports).toEqual([]);
    } finally {
      useGnuTime(null);
    }
  });
});
