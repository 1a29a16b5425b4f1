// Node's built-in modules that a command loads after wes has set its V8 flags are compiled from
// source (src/runtime/command-builtins.ts): each run notes them beside the code cache, and the
// command's next runs load them before the flags, where Node's own compiled code serves them.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawnWes, tempConfigDir } from '../helpers/cli.js';
import { bytesWorkflow, useDevServer } from '../helpers/dev-server.js';

const AFTER_FLAGS = join(import.meta.dirname, '../fixtures/start-up/builtins-after-flags.cjs');

describe('built-in modules learnt per command', () => {
  const ctx = useDevServer({});

  /** A config folder with the workflow to submit in it. */
  function workspace(): string {
    const config = tempConfigDir();
    onTestFinished(config.cleanup);
    writeFileSync(join(config.dir, 'flow.json'), JSON.stringify(bytesWorkflow(64)));
    return config.dir;
  }

  /** `jobs submit` from `dir`; returns what Node loaded after the flags. */
  async function submit(dir: string): Promise<string[]> {
    const list = join(dir, 'after-flags.txt');
    const env = { WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey, WES_CACHE_DIR: '', NODE_OPTIONS: `--require ${AFTER_FLAGS}`, WES_TEST_BUILTINS_FILE: list };
    const res = await spawnWes(['jobs', 'submit', join(dir, 'flow.json'), '--quiet'], { configDir: dir, env });
    expect(res.code, res.stderr).toBe(0);
    return readFileSync(list, 'utf8').split('\n').filter(Boolean);
  }

  const noteOf = (dir: string) => {
    const build = readdirSync(join(dir, 'code-cache'));
    expect(build).toHaveLength(1);
    return join(dir, 'code-cache', build[0]!, 'builtins.json');
  };

  it('the first run notes them, privately; the next loads them before the flags and notes nothing new', async () => {
    const dir = workspace();
    const first = await submit(dir);
    expect(first).toContain('NativeModule crypto');
    const note = noteOf(dir);
    expect(statSync(note).mode & 0o777).toBe(0o600);
    const noted = JSON.parse(readFileSync(note, 'utf8')) as Record<string, string[]>;
    expect(noted['jobs submit']).toEqual(expect.arrayContaining(['node:crypto', 'node:fs/promises']));
    const written = statSync(note).mtimeMs;

    const second = await submit(dir);
    expect(second.filter((m) => /^NativeModule (crypto|fs\/promises|internal\/crypto\/)/.test(m))).toEqual([]);
    expect(second.length).toBeLessThan(first.length / 3);
    expect(statSync(note).mtimeMs).toBe(written);
  });

  it('a damaged note, or one naming anything but a built-in module, is ignored and written again', async () => {
    const dir = workspace();
    await submit(dir);
    const note = noteOf(dir);
    for (const bad of ['{not json', JSON.stringify({ 'jobs submit': ['./evil.js', 'node:../evil', 'left-pad'] })]) {
      writeFileSync(note, bad);
      const after = await submit(dir);
      expect(after).toContain('NativeModule crypto');
      expect((JSON.parse(readFileSync(note, 'utf8')) as Record<string, string[]>)['jobs submit']).toEqual(expect.arrayContaining(['node:crypto']));
    }
  });
});
