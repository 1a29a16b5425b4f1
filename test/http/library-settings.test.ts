// The library builds its clients on the CLI's composition root (src/compose): what the CLI
// honours of the environment, a script honours too. A purpose-built server on 127.0.0.1 answers
// a job far larger than the limit; WES_MAX_ANSWER_MIB makes the library refuse it exactly as the
// CLI does (before, the library kept its own 64 MiB whatever the environment said), and the proxy
// variables of the environment it is given route its requests as they route the CLI's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClients, createClientsFromConfig, WesError } from '../../src/index.js';
import { runWes } from '../helpers/cli.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import { startTestProxy, type TestProxy } from '../helpers/proxy.js';

const ID = '5a1f0c3e-7b2d-4e9a-8c6f-1d2e3f4a5b6c';
/** A job answer of ~2 MiB: within the default limit, past a limit of 1 MiB. */
const BIG = { id: ID, status: 'queued', padding: 'x'.repeat(2 * 1024 * 1024) };

let server: TestServer;
let proxy: TestProxy;
let config: string;
beforeAll(async () => {
  server = await startTestServer((req, res) => json(res, 200, BIG));
  proxy = await startTestProxy();
  config = mkdtempSync(join(tmpdir(), 'wes-lib-'));
});
afterAll(async () => {
  await server.close();
  await proxy.close();
  rmSync(config, { recursive: true, force: true });
});

async function refusal(read: () => Promise<unknown>): Promise<WesError> {
  const err = await read().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WesError);
  return err as WesError;
}

describe('the library honours the settings the CLI does', () => {
  it('WES_MAX_ANSWER_MIB: createClientsFromConfig refuses a too-large answer the way the CLI does', async () => {
    const env = { WES_CONFIG_DIR: config, WES_BASE_URL: server.url, WES_API_KEY: 'k', WES_MAX_ANSWER_MIB: '1' };
    const clients = createClientsFromConfig({ env });
    const err = await refusal(() => clients.jobs.get(ID));
    await clients.close();
    expect(err.code).toBe('answer_too_large');
    const cli = await runWes(['jobs', 'get', ID], { env });
    expect(cli.code).toBe(err.exitCode);
    expect(cli.stderr).toContain(err.message);
    // The same answer under the default limit is read (the limit above came from the environment).
    const unlimited = createClientsFromConfig({ env: { ...env, WES_MAX_ANSWER_MIB: undefined } });
    await expect(unlimited.jobs.get(ID)).rejects.not.toMatchObject({ code: 'answer_too_large' });
    await unlimited.close();
  });

  it('createClients takes the limit as maxAnswerMib, or from the env it is given', async () => {
    const byOption = createClients({ baseUrl: server.url, apiKey: 'k', maxAnswerMib: 1 });
    expect((await refusal(() => byOption.jobs.get(ID))).code).toBe('answer_too_large');
    await byOption.close();
    const byEnv = createClients({ baseUrl: server.url, apiKey: 'k', env: { WES_MAX_ANSWER_MIB: '1' } });
    expect((await refusal(() => byEnv.jobs.get(ID))).code).toBe('answer_too_large');
    await byEnv.close();
  });

  it('a malformed WES_MAX_ANSWER_MIB is the CLI\'s usage error, before any request', async () => {
    const before = server.requests.length;
    expect(() => createClientsFromConfig({ env: { WES_CONFIG_DIR: config, WES_BASE_URL: server.url, WES_MAX_ANSWER_MIB: 'lots' } })).toThrow(/WES_MAX_ANSWER_MIB must be a positive number of MiB, got lots/);
    expect(server.requests.length).toBe(before);
  });

  it('the proxy variables of the env given: through HTTP_PROXY with WES_PROXY_LOOPBACK=1, direct without env', async () => {
    proxy.calls.length = 0;
    const env = { WES_CONFIG_DIR: config, WES_BASE_URL: server.url, WES_API_KEY: 'k', HTTP_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1', WES_MAX_ANSWER_MIB: '1' };
    const proxied = createClientsFromConfig({ env });
    await refusal(() => proxied.jobs.get(ID));
    await proxied.close();
    expect(proxy.calls.map((c) => c.target)).toEqual([`${server.url}/api/v2/jobs/${ID}`]);
    const given = createClients({ baseUrl: server.url, apiKey: 'k', maxAnswerMib: 1, env: { HTTP_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1' } });
    await refusal(() => given.jobs.get(ID));
    await given.close();
    expect(proxy.calls).toHaveLength(2);
    const direct = createClients({ baseUrl: server.url, apiKey: 'k', maxAnswerMib: 1 });
    await refusal(() => direct.jobs.get(ID));
    await direct.close();
    expect(proxy.calls).toHaveLength(2);
  });

  it('the user agent names the library, and the CLI names itself', async () => {
    const clients = createClients({ baseUrl: server.url, apiKey: 'k', maxAnswerMib: 1 });
    await refusal(() => clients.jobs.get(ID));
    await clients.close();
    expect(server.requests.at(-1)!.headers['user-agent']).toMatch(/^wes-lib\/\S+ node\/\S+$/);
    await runWes(['jobs', 'get', ID], { env: { WES_BASE_URL: server.url, WES_API_KEY: 'k', WES_MAX_ANSWER_MIB: '1' } });
    expect(server.requests.at(-1)!.headers['user-agent']).toMatch(/^wes\/\S+ node\/\S+$/);
  });
});
