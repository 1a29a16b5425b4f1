// A model run whose connection was refused never reached the router: nothing can have run or been
// charged, so it is not said to have gone through (the one keyed verdict, src/features/keyed;
// models once had its own that counted a refused connection as maybe sent).
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';

/** A loopback port that nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('models run, connection refused', () => {
  it('fails as a connection failure, not as a call in doubt: no collect command, no key to collect with', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const env = { WES_BASE_URL: url, WES_ROUTER_URL: url, WES_API_KEY: 'k', WES_ROUTER_TOKEN: 't' };
    const argv = ['--router-api', 'v2', '--retries', '0', 'models', 'run', 'dev/echo', '-d', '{}', '--idempotency-key', 'k-refused'];
    const human = await runWes(argv, { env });
    expect(human.code, human.stderr).toBe(1);
    expect(human.stderr).toMatch(/connection refused/);
    expect(human.stderr).not.toMatch(/may have gone through|collect its result/);
    const json = await runWes(['--json', ...argv], { env });
    expect(json.code, json.stderr).toBe(1);
    const { error } = JSON.parse(json.stderr) as { error: { code: string; details: unknown } };
    expect(error.code).toBe('network_error');
    // A call in doubt carries its key for the collect; a call that never left carries none.
    expect(error.details).toBeNull();
  });
});
