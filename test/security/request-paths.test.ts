// An id given on the command line is one path segment, whatever it holds: a job, asset or prompt
// id with '/', '..', '%2f', '?' or '#' cannot reach another route (the server's request log shows
// exactly one encoded segment that decodes back to the id), and a model id that breaks the id
// rules is refused before any request.
import { describe, expect, it } from 'vitest';
import { LEGACY_KEY } from '../cli/legacy-kit.js';
import { useFaultServer, wesAt } from '../faults/kit.js';

const IDS = ['a/b', '../assets/x', '%2f', '%2e%2e', '.%2e', 'x/../../y', '%2E', 'q?x=1#frag', '..%2f..%2fadmin', '..\\..\\x', '...'];
/** URLs resolve '.', '..' (and their %2e forms) away, and '' names the collection: refused locally. */
const REFUSED = ['', '.', '..'];

/** The commands an id travels through, and the one route each may use for it. */
const ROUTES: Array<{ args: (id: string) => string[]; route: RegExp }> = [
  { args: (id) => ['jobs', 'get', id], route: /^\/api\/v2\/jobs\/([^/?#]+)$/ },
  { args: (id) => ['jobs', 'watch', id], route: /^\/api\/v2\/jobs\/([^/?#]+)$/ },
  { args: (id) => ['assets', 'download', id, '/dev/null'], route: /^\/api\/v2\/assets\/([^/?#]+)(?:\/content)?$/ },
  { args: (id) => ['legacy', 'status', id], route: /^\/api\/job\/([^/?#]+)\/status$/ },
];

describe('ids cannot change the request path', () => {
  const fx = useFaultServer({ apiKey: LEGACY_KEY });
  const wes = (args: string[]) => wesAt(fx.server.url, [...args, '--retries', '0'], { apiKey: LEGACY_KEY, env: { WES_ROUTER_TOKEN: LEGACY_KEY } });

  it('job, asset and prompt ids each stay one encoded segment of their own route', async () => {
    for (const { args, route } of ROUTES) {
      const from = fx.log.length;
      const results = await Promise.all(IDS.map((id) => wes(args(id))));
      for (const [i, res] of results.entries()) expect(res.code, `${args(IDS[i]!).join(' ')}: ${res.stderr}`).toBe(5);
      // `legacy` asks once which v1 server this is (GET /api/system_stats), a fixed path.
      const urls = fx.log.slice(from).map((line) => line.split(' ')[1]!).filter((url) => url !== '/api/system_stats');
      const decoded = urls.map((url) => {
        const m = route.exec(url);
        expect(m, `${url} is not a ${route} request`).not.toBeNull();
        return decodeURIComponent(m![1]!);
      });
      expect(new Set(decoded)).toEqual(new Set(IDS));
    }
  });

  it("'', '.' and '..' are refused with exit 2 before any request", async () => {
    const from = fx.log.length;
    const results = await Promise.all(ROUTES.flatMap(({ args }) => REFUSED.map((id) => wes(args(id)))));
    for (const res of results) {
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain('is not an id');
    }
    expect(fx.log.slice(from).filter((line) => !line.includes('/api/features') && !line.startsWith('GET /ws'))).toEqual([]);
  });

  it('model ids that break the rules are refused with exit 2 before any request', async () => {
    const before = [...fx.server.state.requestCounts.entries()].filter(([k]) => k.includes('/v1/models')).reduce((n, [, v]) => n + v, 0);
    const bad = ['a/../b', '../x/y', 'a/b/c', 'a%2fb/c', 'dev/..', 'dev/echo/..', 'dev/%2e%2e', 'dev/echo?x=1'];
    const results = await Promise.all([
      ...bad.map((id) => wes(['models', 'show', id])),
      wes(['models', 'schema', '../dev/echo']),
      wes(['models', 'run', 'dev/..', '-d', '{}']),
    ]);
    for (const res of results) expect(res.code, res.stderr).toBe(2);
    const after = [...fx.server.state.requestCounts.entries()].filter(([k]) => k.includes('/v1/models')).reduce((n, [, v]) => n + v, 0);
    expect(after).toBe(before);
  });
});
