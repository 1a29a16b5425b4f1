// wes auth status shows the account (GET /api/user) where the v1 API serves it: the cloud's
// `status` (openapi-cloud.yaml getUser); a ComfyUI engine has no such route (404, recorded), so no line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { startFast } from '../helpers/dev-server.js';
import { tempConfigDir } from '../helpers/cli.js';
import { wesAgainst } from './jobs-env.js';

describe('auth status and the account', () => {
  let cloud: DevServerHandle;
  let engine: DevServerHandle;
  let config: ReturnType<typeof tempConfigDir>;
  beforeAll(async () => {
    cloud = await startFast({ deployment: 'cloud' });
    engine = await startFast({ deployment: 'self-hosted', engineOnly: true, engineVersion: '0.3.64' });
    config = tempConfigDir();
  });
  afterAll(async () => {
    config.cleanup();
    await cloud.close();
    await engine.close();
  });

  it('the cloud: the account status, in the fields and in --json', async () => {
    const wes = wesAgainst(() => cloud);
    const res = await wes(['auth', 'status'], { configDir: config.dir });
    expect(res.stdout).toMatch(/^account\tactive$/m);
    const json = JSON.parse((await wes(['auth', 'status', '--json'], { configDir: config.dir })).stdout) as { account?: { status: string } };
    expect(json.account).toEqual({ status: 'active' });
  });

  it('an engine: no account line, and nothing fails for it', async () => {
    const res = await wesAgainst(() => engine)(['auth', 'status', '--json'], { configDir: config.dir });
    expect(JSON.parse(res.stdout)).not.toHaveProperty('account');
    expect((await wesAgainst(() => engine)(['auth', 'status'], { configDir: config.dir })).stdout).not.toMatch(/^account/m);
  });
});
