// `jobs submit --batch` with --base-url repeated: each URL is an endpoint (URL,N gives its
// concurrency), and the configured key (flag, environment or profile) goes only to the URL whose
// origin is the configured base URL's: a server named on the command line never receives a key
// configured for another. Outside a batch, a repeated --base-url is a usage error (exit 2).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { startFast } from '../helpers/dev-server.js';
import { runWes } from '../helpers/cli.js';
import { useTempDir } from './jobs-env.js';
import { engineJobs, quickWorkflow, resultsFile, writeBatch } from './batch-env.js';

describe('jobs submit --batch with --base-url repeated', () => {
  const dir = useTempDir();
  const started: DevServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
  });
  async function server(options: Parameters<typeof startFast>[0]): Promise<DevServerHandle> {
    const s = await startFast({ stepMs: 1, slots: 2, ...options });
    started.push(s);
    return s;
  }

  it('spreads the lines over every --base-url, each with its own concurrency', async () => {
    // Two servers that ask for no key (a self-hosted deployment serving the job API too).
    const [a, b] = [await server({ deployment: 'self-hosted' }), await server({ deployment: 'self-hosted' })];
    const lines = Array.from({ length: 12 }, (_, i) => quickWorkflow('spread', i + 1));
    const file = writeBatch(dir(), 'spread.jsonl', lines);
    const results = join(dir(), 'spread-results.jsonl');
    const res = await runWes(['--base-url', a.url, '--base-url', `${b.url},3`, '--engine', 'cloud', 'jobs', 'submit', '--batch', file, '--results', results]);
    expect(res.code, res.stderr).toBe(0);
    const all = resultsFile(results);
    expect(all.map((r) => r.status)).toEqual(lines.map(() => 'succeeded'));
    expect(engineJobs(a, 'spread').length + engineJobs(b, 'spread').length).toBe(12);
    expect(new Set(all.map((r) => r.endpoint))).toEqual(new Set([a.url, b.url]));
    expect(res.stderr).toMatch(new RegExp(`^ {2}${b.url.replace(/[.:/]/g, '\\$&')}: \\d+ submitted, \\d+ succeeded, 0 failed, [\\d.]+ jobs/s; 3 in flight at most`, 'm'));
    expect(res.stderr).not.toContain('sent without the API key');
  });

  it('sends the configured key only to the configured origin', async () => {
    // Both accept the same key: were it sent to b, b would take b's lines.
    const a = await server({ apiKey: 'key-of-a' });
    const b = await server({ deployment: 'self-hosted', apiKey: 'key-of-a' });
    const file = writeBatch(dir(), 'keys.jsonl', Array.from({ length: 6 }, (_, i) => quickWorkflow('keys', i + 1)));
    const results = join(dir(), 'keys-results.jsonl');
    const res = await runWes(['--base-url', `${a.url},2`, '--base-url', `${b.url},2`, '--engine', 'cloud', 'jobs', 'submit', '--batch', file, '--results', results], {
      env: { WES_BASE_URL: a.url, WES_API_KEY: 'key-of-a' },
    });
    expect(res.stderr).toContain(`--base-url ${b.url}: sent without the API key, which is configured for ${a.url}`);
    expect(res.stderr).not.toContain(`--base-url ${a.url}: sent without`);
    const all = resultsFile(results);
    // b refused every line it got (401: no key came with it), and none made a job there.
    expect(engineJobs(b, 'keys')).toEqual([]);
    const onB = all.filter((r) => r.endpoint === b.url);
    for (const r of onB) expect(r.error?.exit_code, JSON.stringify(r)).toBe(4);
    expect(all.filter((r) => r.status === 'succeeded').every((r) => r.endpoint === a.url)).toBe(true);
    expect(engineJobs(a, 'keys').length).toBeGreaterThan(0);
    expect(res.code).toBe(4);
  });

  it('outside a batch a repeated --base-url is a usage error naming it', async () => {
    const res = await runWes(['--base-url', 'http://127.0.0.1:1', '--base-url', 'http://127.0.0.1:2', 'jobs', 'get', 'abc']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--base-url was given 2 times; this command talks to one server');
    const bad = await runWes(['--base-url', 'ftp://x', '--base-url', 'http://127.0.0.1:2', 'jobs', 'submit', '--batch', writeBatch(dir(), 'one.jsonl', [quickWorkflow('one', 1)])]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--base-url ftp://x: not an http(s) URL');
  });
});
