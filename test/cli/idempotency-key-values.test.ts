// --idempotency-key follows the published contract in both families that take it (jobs submit,
// models run): the key goes into the Idempotency-Key header as given, 1-255 printable ASCII
// characters (the maker's rule, stricter than what a header value can carry). A key that cannot be sent is a usage error (exit 2) before any request. The
// jobs family once took any non-empty text: a key with a line break or a Cyrillic letter was
// refused by the HTTP layer only when sending, retried as a dropped connection, and ended with a
// "the submit may have gone through" hint for a request that never left.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCounts, useDevServer } from '../helpers/dev-server.js';
import { wesAgainst } from './models-env.js';

const dev = useDevServer();
const wes = wesAgainst(() => dev.server);
let dir: string;
let flow: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wes-idempotency-key-'));
  flow = join(dir, 'flow.json');
  writeFileSync(flow, JSON.stringify({ '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'k' } } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verbs = (): Record<string, string[]> => ({
  'jobs submit': ['jobs', 'submit', flow],
  'models run': ['models', 'run', 'dev/echo', '-d', '{}'],
});

describe('--idempotency-key: one rule for jobs and models', () => {
  it.each(['', '   ', 'a\nb', 'tab\there', 'bell\u0007', 'c1\u0085', 'ключ-1', 'emoji-\u{1F600}', 'clé-42', 'k'.repeat(256)])('%j is refused by both, with exit 2 and no request', async (bad) => {
    for (const [name, verb] of Object.entries(verbs())) {
      const before = await requestCounts(dev.server);
      const res = await wes([...verb, '--idempotency-key', bad, '--retries', '0']);
      expect(res.code, `${name}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/is invalid\. it must be 1-255 printable ASCII characters \(no control characters, nothing past ~; this one [^)]+\), e\.g\. --idempotency-key job-42\./);
      expect(await requestCounts(dev.server), name).toEqual(before);
    }
  });

  it('a key of printable ASCII, spaces inside, 255 characters at most, is sent as given by both', async () => {
    for (const [name, verb] of Object.entries(verbs())) {
      const key = `${name.replace(' ', '-')} k~42 `.padEnd(255, 'x');
      const res = await wes([...verb, '--idempotency-key', key, '--verbose']);
      expect(res.code, `${name}: ${res.stderr}`).toBe(0);
      expect(res.stderr).toContain(`> idempotency-key: ${key}`);
    }
  });
});
