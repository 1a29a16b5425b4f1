// Live completion values: job ids from the local history (with @last) for the job commands, and
// model ids from a cached catalog page that a background refresh fills, so the shell never waits.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageWorkflow } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { writeTemp } from './jobs-env.js';
import { useKeptConfig } from './history-env.js';

describe('live completion values', () => {
  const { dir, cfg, run, wes } = useKeptConfig();

  it('job ids come from the history, newest first after @last; the scripts ask for them on job commands', async () => {
    expect((await run(['__complete', 'jobs'])).stdout).toBe('');
    const a = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow())])).stdout.trim();
    const b = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow())])).stdout.trim();
    expect((await run(['__complete', 'jobs'])).stdout).toBe(`@last\n${b}\n${a}\n`);
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = (await run(['completion', shell])).stdout;
      expect(script).toContain('k:jobs');
      expect(script).toContain('k:models');
    }
  });

  it('model ids answer from the cache at once; a missing cache is filled in the background', async () => {
    // The refresh runs in a process of its own that outlives the command; without a code cache to
    // save at its exit, the cache file is the last thing it writes, so the folder can go after it.
    const first = await wes(['__complete', 'models'], { configDir: cfg.dir, env: { WES_CODE_CACHE: '0' } });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    const cache = join(cfg.dir, 'state', 'cache');
    await until(() => existsSync(cache) && readdirSync(cache).some((f) => f.endsWith('.txt')), 'the model cache filled in the background');
    const ids = (await run(['__complete', 'models'])).stdout.split('\n').filter(Boolean);
    expect(ids).toContain('dev/echo');
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/);
  });
});

describe('--set completion and batch lines in the history', () => {
  const { dir, run } = useKeptConfig();

  it('offers NODE.INPUT= for every input of the workflow file on the command line, in every shell script', async () => {
    const flow = writeTemp(dir(), { '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8 } }, '$(x)': { class_type: 'A', inputs: { 'b;c': 1 } }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0] } } });
    expect((await run(['__complete', 'set', flow])).stdout).toBe('1.width=\n1.height=\n2.images=\n');
    expect((await run(['__complete', 'set', join(dir(), 'missing.json')])).stdout).toBe('');
    for (const shell of ['bash', 'zsh', 'fish']) expect((await run(['completion', shell])).stdout).toContain('k:set');
  });

  it('records every batch line in the history', async () => {
    const lines = [imageWorkflow({ seed: 1 }), imageWorkflow({ seed: 2 })].map((w) => JSON.stringify(w)).join('\n') + '\n';
    const batch = writeTemp(dir(), lines, 'jsonl');
    const res = await run(['jobs', 'submit', '--batch', batch]);
    expect(res.code, res.stderr).toBe(0);
    const listed = JSON.parse((await run(['jobs', 'list', '--json'])).stdout) as Array<{ source: string }>;
    expect(listed.map((e) => e.source).sort()).toEqual([`batch ${batch.split('/').pop()}:1`, `batch ${batch.split('/').pop()}:2`]);
  });
});
