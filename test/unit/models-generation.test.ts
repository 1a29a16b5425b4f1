// Which router routes a call goes to: pinned by router_api, else the interface's /v1 first and the
// published /v2 when /v1 answers a 404 (or 405) no router wrote; what answered is remembered per
// router URL, a remembered generation that stops answering is found again, and a call that needs
// the queue asks /v2 alone. The memory is a per-profile file that forgets foreign and old entries.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError, UsageError, WesError } from '../../src/errors.js';
import { isBareMiss, noRouterError, RouterGeneration, type GenerationMemory, type NoRouterInfo } from '../../src/clients/models/generation.js';
import { GENERATION_CACHE_TTL_MS, GenerationCache } from '../../src/clients/models/generation-cache.js';
import { ProfileStore } from '../../src/config/store.js';
import type { RouterApi } from '../../src/protocol/models.js';

const URL_A = 'https://router.example';

/** A 404/405 as a web server answers an unknown route (no error type), or as a router does. */
function miss(status = 404): ApiError {
  return new ApiError('HTTP 404 not found: 404: Not Found', { status, code: 'internal_error', origin: 'models', headers: { 'content-type': 'text/plain' } });
}
function routerError(status: number, type: string): ApiError {
  return new ApiError('x', { status, code: type, origin: 'models', headers: { 'x-service-error-type': type } });
}

class Memory implements GenerationMemory {
  writes: Array<[string, RouterApi]> = [];
  constructor(private value?: RouterApi) {}
  async read(): Promise<RouterApi | undefined> {
    return this.value;
  }
  async write(url: string, api: RouterApi): Promise<void> {
    this.value = api;
    this.writes.push([url, api]);
  }
}

/** A server that serves only `served` generations (each call records the generation asked). */
function server(served: RouterApi[], asked: RouterApi[]) {
  return async (api: RouterApi) => {
    asked.push(api);
    if (!served.includes(api)) throw miss();
    return `answer from ${api}`;
  };
}

describe('RouterGeneration with auto', () => {
  it('asks /v1 first, then /v2 on a bare 404, and remembers /v2; the next call asks /v2 alone', async () => {
    const memory = new Memory();
    const asked: RouterApi[] = [];
    const first = new RouterGeneration(URL_A, 'auto', memory);
    expect(await first.call(server(['v2'], asked))).toBe('answer from v2');
    expect(asked).toEqual(['v1', 'v2']);
    expect(memory.writes).toEqual([[URL_A, 'v2']]);
    const later = new RouterGeneration(URL_A, 'auto', memory);
    asked.length = 0;
    await later.call(server(['v2'], asked));
    await later.call(server(['v2'], asked));
    expect(asked).toEqual(['v2', 'v2']);
    expect(memory.writes).toHaveLength(1); // written once, not on every call
  });

  it('a 405 without an error type is a miss too (an engine answers a POST to a route it lacks so)', async () => {
    const generation = new RouterGeneration(URL_A, 'auto');
    const asked: RouterApi[] = [];
    const value = await generation.call(async (api) => {
      asked.push(api);
      if (api === 'v1') throw miss(405);
      return 'ok';
    });
    expect(value).toBe('ok');
    expect(generation.current).toBe('v2');
    expect(isBareMiss(miss(405))).toBe(true);
    expect(isBareMiss(routerError(404, 'model_not_found'))).toBe(false);
  });

  it("a router's own refusal on /v1 proves /v1: it is thrown, not followed to /v2, and remembered", async () => {
    const memory = new Memory();
    const generation = new RouterGeneration(URL_A, 'auto', memory);
    const asked: RouterApi[] = [];
    await expect(generation.call(async (api) => {
      asked.push(api);
      throw routerError(404, 'model_not_found');
    })).rejects.toMatchObject({ code: 'model_not_found' });
    expect(asked).toEqual(['v1']);
    expect(memory.writes).toEqual([[URL_A, 'v1']]);
  });

  it('a remembered generation that now misses is found again (and the memory corrected)', async () => {
    const memory = new Memory('v2');
    const asked: RouterApi[] = [];
    await new RouterGeneration(URL_A, 'auto', memory).call(server(['v1'], asked));
    expect(asked).toEqual(['v2', 'v1']);
    expect(memory.writes).toEqual([[URL_A, 'v1']]);
  });

  it('neither generation served: the explainer says so, with what was tried and the 404 that caused it', async () => {
    const generation = new RouterGeneration(URL_A, 'auto', null, { noRouter: (info) => new UsageError(`no router: ${info.tried.join(', ')} (${info.cause.status})`) });
    await expect(generation.call(server([], []))).rejects.toThrow('no router: /v1/models, /v2/models (404)');
    const plain = new RouterGeneration(URL_A, 'auto');
    // The client speaks no command line: how to point the CLI at a router is the models command's hint (no-router.ts).
    await expect(plain.call(server([], []))).rejects.toMatchObject({ code: 'no_model_router', exitCode: 5, hint: undefined });
  });

  it('a call that needs the queue asks /v2 alone and does not overwrite what /v1 answered', async () => {
    const memory = new Memory('v1');
    const asked: RouterApi[] = [];
    await new RouterGeneration(URL_A, 'auto', memory).call(server(['v1', 'v2'], asked), 'v2');
    expect(asked).toEqual(['v2']);
    expect(memory.writes).toEqual([]);
    // A /v1-only router: the queue is said to be missing there, not the router.
    const only = new RouterGeneration(URL_A, 'auto', new Memory('v1'));
    await expect(only.call(server(['v1'], []), 'v2')).rejects.toThrow(/serves only the interface's \/v1 routes, which have no queued delivery/);
  });
});

describe('RouterGeneration with no credential configured', () => {
  const noCredential = () => new WesError('no credential for the models API family', { exitCode: 4, code: 'no_credential', origin: 'models' });

  it('asks the catalogs without one: no router there is said as such, a router there leaves the error as it was', async () => {
    const asked: RouterApi[] = [];
    const none = new RouterGeneration(URL_A, 'auto');
    none.probeWithoutCredential = async (api) => {
      asked.push(api);
      throw miss();
    };
    await expect(none.call(async () => { throw noCredential(); })).rejects.toMatchObject({ code: 'no_model_router', exitCode: 5 });
    expect(asked).toEqual(['v1', 'v2']);
    const served = new RouterGeneration(URL_A, 'auto');
    served.probeWithoutCredential = async () => {
      throw routerError(401, 'unauthorized');
    };
    await expect(served.call(async () => { throw noCredential(); })).rejects.toMatchObject({ code: 'no_credential', exitCode: 4 });
  });
});

describe('RouterGeneration pinned', () => {
  it('asks only the pinned generation, remembers nothing, and names the pin when it misses', async () => {
    const memory = new Memory('v2');
    const asked: RouterApi[] = [];
    const told: NoRouterInfo[] = [];
    const pinned = new RouterGeneration(URL_A, 'v1', memory, { noRouter: (info) => (told.push(info), noRouterError(info)) });
    await expect(pinned.call(server(['v2'], asked))).rejects.toMatchObject({ code: 'no_model_router' });
    // The pin goes to the explainer, which words the hint (the CLI's: --router-api auto, in command-kit/models/no-router.ts).
    expect(told.map((info) => info.pinned)).toEqual(['v1']);
    expect(asked).toEqual(['v1']);
    expect(memory.writes).toEqual([]);
  });

  it('a queue call with v1 pinned is a usage error before any request', async () => {
    const asked: RouterApi[] = [];
    await expect(new RouterGeneration(URL_A, 'v1').call(server(['v1', 'v2'], asked), 'v2')).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/queued delivery is served only by the published router routes/) });
    expect(asked).toEqual([]);
  });
});

describe('GenerationCache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wes-gen-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const store = new ProfileStore(dir);

  it('keeps a generation per router URL for a day, and ignores damaged, foreign and old entries', async () => {
    let now = 1_000_000;
    const cache = new GenerationCache(store, 'p', () => now);
    expect(await cache.read(URL_A)).toBeUndefined();
    await cache.write(URL_A, 'v2');
    expect(await cache.read(URL_A)).toBe('v2');
    expect(await cache.read('https://other.example')).toBeUndefined();
    expect(await new GenerationCache(store, 'q', () => now).read(URL_A)).toBeUndefined(); // per profile
    now += GENERATION_CACHE_TTL_MS + 1;
    expect(await cache.read(URL_A)).toBeUndefined();
    now = 1_000_000;
    const { readdirSync } = await import('node:fs');
    const folder = store.cacheDir('p', 'router-api');
    for (const name of readdirSync(folder)) {
      for (const junk of ['null', '{"router_url":"https://router.example","router_api":"v9","found_at":1000000}', 'not json']) {
        writeFileSync(join(folder, name), junk);
        expect(await cache.read(URL_A)).toBeUndefined();
      }
    }
  });
});
