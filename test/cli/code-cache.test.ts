// The built CLI keeps V8's compiled code of its chunks (src/runtime/code-cache.ts): the first run
// of a build saves it, later runs hand it back to V8. These run the built binary, as a user does.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript
import { buildId } from '../../scripts/build-commonjs.mjs';
import { codeCacheDir, commandKey } from '../../src/runtime/code-cache.js';
import { spawnWes, tempConfigDir } from '../helpers/cli.js';
import { bytesWorkflow, finishedJob, useDevServer } from '../helpers/dev-server.js';

/** A job as printed, without what changes per request (signed output URLs). */
function stable(stdout: string): unknown {
  const job = JSON.parse(stdout) as { outputs: Array<Record<string, unknown>> };
  return { ...job, outputs: job.outputs.map(({ url: _url, url_expires_at: _expires, ...rest }) => rest) };
}

const id = buildId as (files: Array<{ name: string; text: string }>) => string;

/**
 * The cache folder of the built CLI under a config folder, and its files of compiled code with
 * identity and mode (not the note of built-in modules beside them: command-builtins.test.ts).
 */
function cacheFiles(configDir: string): { dir: string; files: Map<string, { ino: number; mtimeMs: number; mode: number }> } {
  const builds = readdirSync(join(configDir, 'code-cache')).filter((name) => !name.startsWith('old-'));
  expect(builds).toHaveLength(1);
  const dir = join(configDir, 'code-cache', builds[0]!);
  const files = new Map(readdirSync(dir).filter((name) => name !== 'builtins.json').map((name) => {
    const st = statSync(join(dir, name));
    return [name, { ino: st.ino, mtimeMs: st.mtimeMs, mode: st.mode & 0o777 }];
  }));
  return { dir, files };
}

describe('where the code cache lives', () => {
  it('per build, under WES_CACHE_DIR, else WES_CONFIG_DIR when set, else the per-user cache folder; WES_CODE_CACHE=0 turns it off', () => {
    expect(codeCacheDir({ WES_CACHE_DIR: '/k', WES_CONFIG_DIR: '/c' }, 'b1')).toBe('/k/code-cache/b1');
    expect(codeCacheDir({ WES_CACHE_DIR: '', WES_CONFIG_DIR: '/c' }, 'b1')).toBe('/c/code-cache/b1');
    expect(codeCacheDir({ WES_CONFIG_DIR: '/c' }, 'b1')).toBe('/c/code-cache/b1');
    expect(codeCacheDir({ XDG_CACHE_HOME: '/x' }, 'b1')).toMatch(process.platform === 'linux' ? /^\/x\/wes\/code-cache\/b1$/ : /code-cache[\\/]b1$/);
    expect(codeCacheDir({ WES_CONFIG_DIR: '/c', WES_CODE_CACHE: '0' }, 'b1')).toBeUndefined();
  });

  it('a run is cached under its command: the first two words that are not options, any word that is not a name as *', () => {
    expect(commandKey(['jobs', 'get', '7d7c0b7e-2f1e-4a43-9a4c-2d1f0f5f8e11', '--json'])).toBe('jobs get');
    expect(commandKey(['--json', 'models', 'run', 'dev/echo', '-d', '{}'])).toBe('models run');
    expect(commandKey(['--version'])).toBe('');
    expect(commandKey(['api', '/api/v2/jobs'])).toBe('api *');
    expect(commandKey(['jobs'])).toBe('jobs');
  });

  it('a build is named by its chunks: names and texts, in any order', () => {
    const a = { name: 'chunks/a.js', text: 'x' };
    const b = { name: 'chunks/b.js', text: 'y' };
    expect(id([a, b])).toBe(id([b, a]));
    expect(id([a, b])).toMatch(/^[0-9a-f]{20}$/);
    expect(id([a, { ...b, text: 'z' }])).not.toBe(id([a, b]));
    expect(id([a, { ...b, name: 'chunks/c.js' }])).not.toBe(id([a, b]));
  });
});

describe('the built CLI with its code cache', () => {
  const ctx = useDevServer({});

  const finishedJobId = async () => (await finishedJob(ctx.server, bytesWorkflow(64))).id;

  function get(configDir: string, jobId: string, env: NodeJS.ProcessEnv = {}) {
    return spawnWes(['jobs', 'get', jobId, '--json'], { configDir, env: { WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey, WES_CACHE_DIR: '', ...env } });
  }

  /**
   * `jobs get` of one job twice under a fresh config folder, `between` run in between; both runs
   * must succeed with the same answer. Returns the folder.
   */
  async function twoRuns(between: (configDir: string) => void = () => undefined): Promise<string> {
    const jobId = await finishedJobId();
    const config = tempConfigDir();
    onTestFinished(config.cleanup);
    const first = await get(config.dir, jobId);
    expect(first.code, first.stderr).toBe(0);
    between(config.dir);
    const second = await get(config.dir, jobId);
    expect(second.code, second.stderr).toBe(0);
    expect(stable(second.stdout)).toEqual(stable(first.stdout));
    return config.dir;
  }

  it('the first run saves private files; the next one uses them as they are', async () => {
    let saved: ReturnType<typeof cacheFiles> | undefined;
    const configDir = await twoRuns((dir) => {
      saved = cacheFiles(dir);
      expect(statSync(saved.dir).mode & 0o777).toBe(0o700);
      expect(saved.files.size).toBeGreaterThan(5);
      for (const [name, file] of saved.files) expect(file.mode, name).toBe(0o600);
      expect([...saved.files.keys()].every((name) => name.endsWith('.js.v8'))).toBe(true);
      for (const name of saved.files.keys()) expect(readFileSync(join(saved.dir, name)).subarray(0, 40).toString('latin1'), name).toMatch(/^wes-code-cache 1 \["jobs get"\] *\n/);
    });
    // Accepted by V8: not one file was made again.
    expect(cacheFiles(configDir).files).toEqual(saved!.files);
  });

  it("another command's first run saves a chunk's cache again with its own functions, once; each file names the commands it holds", async () => {
    const jobId = await finishedJobId();
    const config = tempConfigDir();
    onTestFinished(config.cleanup);
    const help = await spawnWes(['--help'], { configDir: config.dir, env: { WES_CACHE_DIR: '' } });
    expect(help.code, help.stderr).toBe(0);
    const afterHelp = cacheFiles(config.dir);
    const commandsOf = (name: string) => {
      const head = readFileSync(join(afterHelp.dir, name)).subarray(0, 200).toString('latin1');
      return JSON.parse(/^wes-code-cache 1 (\[[^\n]*\]) *\n/.exec(head)![1]!) as string[];
    };
    for (const name of afterHelp.files.keys()) expect(commandsOf(name), name).toEqual(['']);
    const first = await get(config.dir, jobId);
    expect(first.code, first.stderr).toBe(0);
    const afterGet = cacheFiles(config.dir);
    // The chunks both commands load (the command tree, commander) are saved again, naming both.
    const shared = [...afterHelp.files.keys()].filter((name) => afterGet.files.get(name)!.ino !== afterHelp.files.get(name)!.ino);
    expect(shared.length).toBeGreaterThan(0);
    for (const name of shared) expect(commandsOf(name), name).toEqual(['', 'jobs get']);
    for (const name of afterGet.files.keys()) if (!afterHelp.files.has(name)) expect(commandsOf(name), name).toEqual(['jobs get']);
    const second = await get(config.dir, jobId);
    expect(stable(second.stdout)).toEqual(stable(first.stdout));
    expect(cacheFiles(config.dir).files).toEqual(afterGet.files);
  });

  it('a damaged file is compiled from source and saved again', async () => {
    let damaged: { dir: string; name: string; ino: number; before: number } | undefined;
    const configDir = await twoRuns((dir) => {
      const saved = cacheFiles(dir);
      const [name, before] = [...saved.files].sort((a, b) => statSync(join(saved.dir, b[0])).size - statSync(join(saved.dir, a[0])).size)[0]!;
      writeFileSync(join(saved.dir, name), Buffer.alloc(statSync(join(saved.dir, name)).size, 0x5a));
      damaged = { dir: saved.dir, name, ino: statSync(join(saved.dir, name)).ino, before: before.ino };
    });
    const after = cacheFiles(configDir).files.get(damaged!.name)!;
    expect(after.ino).not.toBe(damaged!.ino);
    expect(after.ino).not.toBe(damaged!.before);
    expect(readFileSync(join(damaged!.dir, damaged!.name)).subarray(0, 64).every((byte) => byte === 0x5a)).toBe(false);
  });

  it('the first save of a build removes the caches of older builds but the two most recent', async () => {
    const configDir = await twoRuns((dir) => {
      rmSync(cacheFiles(dir).dir, { recursive: true });
      ['old-1', 'old-2', 'old-3'].forEach((name, i) => {
        const old = join(dir, 'code-cache', name);
        mkdirSync(old);
        writeFileSync(join(old, 'chunks-x.js.v8'), 'old');
        utimesSync(old, 1_000_000 + i * 1000, 1_000_000 + i * 1000);
      });
    });
    expect(readdirSync(join(configDir, 'code-cache')).filter((name) => name.startsWith('old-')).sort()).toEqual(['old-2', 'old-3']);
    expect(cacheFiles(configDir).files.size).toBeGreaterThan(5);
  });

  it('a folder others may write to is neither read nor written', async () => {
    let planted: ReturnType<typeof cacheFiles>['files'] | undefined;
    const configDir = await twoRuns((dir) => {
      const saved = cacheFiles(dir);
      for (const name of saved.files.keys()) writeFileSync(join(saved.dir, name), 'planted by another user');
      chmodSync(saved.dir, 0o777);
      planted = cacheFiles(dir).files;
    });
    const now = cacheFiles(configDir);
    expect(now.files).toEqual(planted);
    expect(statSync(now.dir).mode & 0o777).toBe(0o777);
  });

  it('WES_CODE_CACHE=0 keeps nothing, and a cache folder that cannot be made costs nothing but the compile', async () => {
    const jobId = await finishedJobId();
    const off = tempConfigDir();
    const blocked = tempConfigDir();
    try {
      const res = await get(off.dir, jobId, { WES_CODE_CACHE: '0' });
      expect(res.code, res.stderr).toBe(0);
      expect(existsSync(join(off.dir, 'code-cache'))).toBe(false);
      writeFileSync(join(blocked.dir, 'code-cache'), 'a file where the folder would be');
      const again = await get(blocked.dir, jobId);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toBe('');
      expect(JSON.parse(again.stdout).id).toBe(jobId);
    } finally {
      off.cleanup();
      blocked.cleanup();
    }
  });
});
