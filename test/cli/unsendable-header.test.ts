// A request header that HTTP cannot carry (`wes api -H` takes headers as typed) is a usage error
// at once: undici refuses to send it, and that refusal used to be retried as a dropped connection
// five times, then reported as a network error with a "is the server running?" hint.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCounts, useDevServer } from '../helpers/dev-server.js';
import { wesAgainst } from './models-env.js';

const dev = useDevServer();
const wes = wesAgainst(() => dev.server);
let dir: string;
let body: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wes-unsendable-'));
  body = join(dir, 'job.json');
  writeFileSync(body, JSON.stringify({ workflow: { '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } } } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('wes api -H with a value a header cannot carry', () => {
  it.each(['Idempotency-Key: жук', 'X-Note: emoji-\u{1F600}'])('%j exits 2 at once, naming the header, with no retry and no request', async (header) => {
    const before = await requestCounts(dev.server);
    const res = await wes(['api', 'POST', '/api/v2/jobs', '-H', header, '--input', body]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/the request cannot be sent: invalid [a-z-]+ header/);
    expect(res.stderr).toContain('only Latin-1 characters');
    expect(res.stderr).not.toMatch(/retrying|network_error/);
    expect(await requestCounts(dev.server)).toEqual(before);
  });
});
