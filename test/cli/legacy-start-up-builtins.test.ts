// `wes legacy status` names its engine cache file with a SHA-256 computed in JavaScript
// (src/util/sha256-hex.ts), so a status read loads no node:crypto (16 modules, ~2 MB: 134 -> 118
// built-in modules), nor the others the build leaves out (test/cli/start-up-builtins.test.ts).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileStore } from '../../src/config/store.js';
import { tempConfigDir } from '../helpers/cli.js';
import { sampleWorkflow, submit, waitForStatus } from '../dev-server/legacy-kit.js';
import { useLegacyServer } from './legacy-kit.js';

const PRELOAD = join(import.meta.dirname, '../fixtures/start-up/list-loaded-builtins.cjs');
const cloud = useLegacyServer({ stepMs: 1 }, 'wes-legacy-builtins-');

describe('start-up of `wes legacy status`', () => {
  it('reads the engine cache and answers without loading node:crypto, http2, tls, child_process, http or perf_hooks', async () => {
    const cfg = tempConfigDir();
    try {
      const id = await submit(cloud.server, sampleWorkflow(1));
      await waitForStatus(cloud.server, id, ['success']);
      const first = await cloud.wes(['legacy', 'status', id, '--json'], { configDir: cfg.dir }); // learns the engine and caches it
      expect(first.code, first.stderr).toBe(0);
      expect(readdirSync(new ProfileStore(cfg.dir).cacheDir('default', 'engines'))).toHaveLength(1);
      const list = join(cloud.dir, 'builtins.txt');
      const res = await cloud.wes(['legacy', 'status', id, '--json'], { configDir: cfg.dir, env: { NODE_OPTIONS: `--require ${PRELOAD}`, WES_TEST_BUILTINS_FILE: list } });
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ id, status: 'success' });
      const loaded = readFileSync(list, 'utf8').split('\n');
      rmSync(list);
      expect(loaded).toContain('NativeModule net'); // the list is real: a request was made
      for (const name of ['crypto', 'http2', 'tls', 'child_process', 'http', 'perf_hooks']) expect(loaded, name).not.toContain(`NativeModule ${name}`);
    } finally {
      cfg.cleanup();
    }
  });
});
