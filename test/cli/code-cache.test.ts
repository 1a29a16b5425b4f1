// The built CLI keeps V8's compiled code of its chunks (src/runtime/code-cache.ts): the first run
// of a build saves it, later runs hand it back to V8. These run the built binary, as a user does.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript
import { buildId } from '../../scripts/build-commonjs.mjs';
import { codeCacheDir } from '../../src/runtime/code-cache.js';
import { spawnWes, tempConfigDir } from '../helpers/cli.js';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';

/** A job as printed, without what changes per request (signed output URLs). */
function stable(stdout: string): unknown {
  const job = JSON.parse(stdout) as { outputs: Array<Record<string, unknown>> };
  return { ...job, outputs: job.outputs.map(({ url: _url, url_expires_at: _expires, ...rest }) => rest) };
}

const id = buildId as (files: Array<{ name: string; text: string }>) => string;

/** The cache folder of the built CLI under a config folder, and its files with identity and mode. */
function cacheFiles(configDir: string): { dir: string; files: Map<string, { ino: number; mtimeMs: number; mode: number }> } {
  const builds = readdirSync(join(configDir, 'code-cache'));
  expect(builds).toHaveLength(1);
  const dir = join(configDir, 'code-cache', builds[0]!);
  const files = new Map(readdirSync(dir).map((name) => {
    const st = statSync(join(dir, name));
    return [name, { ino: st.ino, mtimeMs: st.mtimeMs, mode: st.mode & 0o777 }];
  }));
  return { dir, files };
}

describe('where the code cache lives', () => {
  it('per build, under WES_CONFIG_DIR when set, else the per-user cache folder; WES_CODE_CACHE=0 turns it off', () => {
    expect(codeCacheDir({ WES_CONFIG_DIR: '/c' }, 'b1')).toBe('/c/code-cache/b1');
    expect(codeCacheDir({ XDG_CACHE_HOME: '/x' }, 'b1')).toMatch(process.platform === 'linux' ? /^\/x\/wes\/code-cache\/b1$/ : /code-cache[\\/]b1$/);
    expect(codeCacheDir({ WES_CONFIG_DIR: '/c', WES_CODE_CACHE: '0' }, 'b1')).toBeUndefined();
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

  async function finishedJob(): Promise<string> {
    const jobId = (await submitJob(ctx.server, bytesWorkflow(64))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${jobId}`, ['succeeded']);
    return jobId;
  }

  function get(configDir: string, jobId: string, env: NodeJS.ProcessEnv = {}) {
    return spawnWes(['jobs', 'get', jobId, '--json'], { configDir, env: { WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey, ...env } });
  }

  it('the first run saves private files; the next one uses them as they are, with the same answer', async () => {
    const jobId = await finishedJob();
    const config = tempConfigDir();
    try {
      const first = await get(config.dir, jobId);
      expect(first.code, first.stderr).toBe(0);
      const saved = cacheFiles(config.dir);
      expect(statSync(saved.dir).mode & 0o777).toBe(0o700);
      expect(saved.files.size).toBeGreaterThan(5);
      for (const [name, file] of saved.files) expect(file.mode, name).toBe(0o600);
      expect([...saved.files.keys()].every((name) => name.endsWith('.js.v8'))).toBe(true);

      const second = await get(config.dir, jobId);
      expect(second.code, second.stderr).toBe(0);
      expect(stable(second.stdout)).toEqual(stable(first.stdout));
      // Accepted by V8: not one file was made again.
      expect(cacheFiles(config.dir).files).toEqual(saved.files);
    } finally {
      config.cleanup();
    }
  });

  it('a damaged file is compiled from source and saved again; an earlier build is removed', async () => {
    const jobId = await finishedJob();
    const config = tempConfigDir();
    try {
      const old = join(config.dir, 'code-cache', 'an-earlier-build');
      mkdirSync(old, { recursive: true });
      writeFileSync(join(old, 'chunks-x.js.v8'), 'old');
      const first = await get(config.dir, jobId);
      expect(first.code, first.stderr).toBe(0);
      expect(existsSync(old)).toBe(false);
      const saved = cacheFiles(config.dir);
      const [name, before] = [...saved.files].sort((a, b) => statSync(join(saved.dir, b[0])).size - statSync(join(saved.dir, a[0])).size)[0]!;
      writeFileSync(join(saved.dir, name), Buffer.alloc(statSync(join(saved.dir, name)).size, 0x5a));
      const damaged = statSync(join(saved.dir, name)).ino;
      const second = await get(config.dir, jobId);
      expect(second.code, second.stderr).toBe(0);
      expect(stable(second.stdout)).toEqual(stable(first.stdout));
      const after = cacheFiles(config.dir).files.get(name)!;
      expect(after.ino).not.toBe(damaged);
      expect(after.ino).not.toBe(before.ino);
      expect(readFileSync(join(saved.dir, name)).subarray(0, 64).every((byte) => byte === 0x5a)).toBe(false);
    } finally {
      config.cleanup();
    }
  });

  it('a folder others may write to is neither read nor written', async () => {
    const jobId = await finishedJob();
    const config = tempConfigDir();
    try {
      const first = await get(config.dir, jobId);
      expect(first.code, first.stderr).toBe(0);
      const saved = cacheFiles(config.dir);
      for (const name of saved.files.keys()) writeFileSync(join(saved.dir, name), 'planted by another user');
      chmodSync(saved.dir, 0o777);
      const planted = cacheFiles(config.dir).files;
      const second = await get(config.dir, jobId);
      expect(second.code, second.stderr).toBe(0);
      expect(stable(second.stdout)).toEqual(stable(first.stdout));
      expect(cacheFiles(config.dir).files).toEqual(planted);
      expect(statSync(saved.dir).mode & 0o777).toBe(0o777);
    } finally {
      config.cleanup();
    }
  });

  it('WES_CODE_CACHE=0 keeps nothing, and a cache folder that cannot be made costs nothing but the compile', async () => {
    const jobId = await finishedJob();
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
