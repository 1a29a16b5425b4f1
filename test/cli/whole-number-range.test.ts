// A whole-number option beyond 2^53 is a usage error before any request: as a double it would be
// rounded and written as "1e+23", which the router refuses (exit 6) after the request.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { wholeNumber } from '../../src/commands/typed-options.js';

const holder = useDevServer();

describe('wholeNumber', () => {
  it('keeps safe integers and refuses ones a double would round', () => {
    expect(wholeNumber(' -5 ')).toBe(-5);
    expect(wholeNumber(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => wholeNumber('9007199254740993')).toThrow(/between/);
  });

  it('models list --limit 99999999999999999999999 is exit 2, naming the flag', async () => {
    const server = holder.server;
    const r = await runWes(['models', 'list', '--limit', '99999999999999999999999'], { env: { WES_ROUTER_URL: server.url, WES_ROUTER_TOKEN: server.apiKey } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--limit <n>.*99999999999999999999999.*whole number between/);
  });
});
