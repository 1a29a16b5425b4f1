// A config folder no folder can be made in (WES_CONFIG_DIR under /proc, where mkdir answers ENOENT):
// every command spun at 100% CPU for ever, SIGTERM unheard, in Node 20's recursive mkdir (the code
// cache's save, the config and history writes). Spawned: the code cache is the built program's.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnWes } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';

const dev = useDevServer();
const FOLDER = '/proc/wes-no-such-folder/config';
// WES_CACHE_DIR '': the code cache goes below the config folder too.
const env = () => ({ WES_CONFIG_DIR: FOLDER, WES_CACHE_DIR: '', WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! });

describe.skipIf(!existsSync('/proc/self'))('a config folder that cannot be made', () => {
  it('leaves commands that only read to end as they would; one that writes says which folder and what to do (exit 1)', async () => {
    expect(await spawnWes(['help', 'exit-codes'], { env: env(), timeoutMs: 20_000 })).toMatchObject({ code: 0 });
    expect((await spawnWes(['jobs', 'get', 'no-such-job'], { env: env(), timeoutMs: 20_000 })).code).toBe(5);
    const set = await spawnWes(['config', 'set', 'read_timeout', '5'], { env: env(), timeoutMs: 20_000 });
    expect(set.code).toBe(1);
    expect(set.stderr).toContain(`cannot make the config folder ${FOLDER}`);
    expect(set.stderr).toContain('hint: set WES_CONFIG_DIR to a folder you can write');
  });
});
