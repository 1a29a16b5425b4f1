// The catalog walk asks for the next page as soon as a page's cursor is known and checks that
// page's entries while the router works: the same entries are refused with the same messages,
// and the walk still ends where the router says.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { WesError } from '../../src/errors.js';
import { ModelsClient } from '../../src/clients/models/client.js';
import { walkCatalog } from '../../src/clients/models/walk.js';
import { isModelId, isModelIdOf } from '../../src/protocol/model-ids.js';
import ids from '../fixtures/protocol/model-ids.json' with { type: 'json' };
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import { until } from '../helpers/until.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const entry = (id: string, provider = id.split('/')[0]!, model = id.split('/')[1]!) => ({ id, provider, model, billing: { charges_on_policy_rejection: 'never' } });

/** A router whose pages are `pages` in order, each page's cursor naming the next. */
async function routerWith(pages: unknown[][]): Promise<ModelsClient> {
  server = await startTestServer((req, res) => {
    const cursor = new URL(req.url!, 'http://x').searchParams.get('cursor');
    const at = cursor === null ? 0 : Number(cursor.slice(1));
    const more = at + 1 < pages.length;
    json(res, 200, { data: pages[at], has_more: more, limit: 100, ...(more ? { next_cursor: `p${at + 1}` } : {}) });
  });
  return new ModelsClient(new HttpClient({ baseUrl: server.url, routerUrl: server.url, apiKey: 'k', routerToken: 't', retries: 0 }));
}

const cursorsAsked = () => server!.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('cursor'));

describe('walkCatalog', () => {
  it('lists every page in order, each id once', async () => {
    const client = await routerWith([[entry('a/one'), entry('a/two')], [], [entry('a/two'), entry('b/three')]]);
    const listed = await walkCatalog(client, { limit: 100 });
    expect(listed.map((e) => e.id)).toEqual(['a/one', 'a/two', 'b/three']);
    expect(cursorsAsked()).toEqual([null, 'p1', 'p2']);
  });

  it.each([
    ['an id that breaks the rules', entry('a/Bad'), /entry 1 of the model list has an id that breaks the model id rules \("a\/Bad"\)/],
    ['an id that is not provider/model', entry('a/one', 'a', 'other'), /entry 1 of the model list has an id that is not provider\/model/],
    ['a provider with a slash', entry('a/b/c', 'a/b', 'c'), /entry 1 of the model list has an id that breaks the model id rules/],
    ['no billing', { id: 'a/one', provider: 'a', model: 'one' }, /entry 1 of the model list has no `billing.charges_on_policy_rejection`/],
  ])('refuses a page with %s, having already asked for the next page', async (_what, bad, message) => {
    const client = await routerWith([[entry('a/zero'), bad], [entry('a/two')]]);
    const attempt = walkCatalog(client, { limit: 100 });
    await expect(attempt).rejects.toBeInstanceOf(WesError);
    await expect(attempt).rejects.toThrow(message);
    await until(() => server!.requests.length === 2, 'the request for the next page');
    expect(cursorsAsked()).toEqual([null, 'p1']);
  });

  it('refuses a bad entry on the last page the same way', async () => {
    const client = await routerWith([[entry('a/one')], [entry('a/two'), entry('x/y', 'x', 'z')]]);
    await expect(walkCatalog(client, { limit: 100 })).rejects.toThrow(/entry 1 of the model list has an id that is not provider\/model/);
  });
});

describe('isModelIdOf', () => {
  it('agrees with isModelId on the interface examples and the length limits', () => {
    const long = (n: number) => 'a'.repeat(n);
    const cases = [...ids.valid_ids, ...ids.invalid_ids, `${long(64)}/${long(128)}`, `${long(65)}/a`, `a/${long(129)}`, `${long(64)}/${long(129)}`];
    for (const id of cases) {
      const slash = id.indexOf('/');
      if (slash < 0) continue;
      expect({ id, ok: isModelIdOf(id.slice(0, slash), id.slice(slash + 1)) }).toEqual({ id, ok: isModelId(id) });
    }
  });
});
