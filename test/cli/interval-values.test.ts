// --interval takes the same values in every family that follows something (jobs, legacy): seconds
// from 0.05 to 3600. Anything else is a usage error (exit 2) with the same words, before any
// request. The legacy verbs once took any positive number and quietly floored it at 20 ms, and
// took a poll every day as readily as one every second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useDevServer } from '../helpers/dev-server.js';
import { totalRequests } from './models-env.js';
import { wes } from './legacy-kit.js';

const dev = useDevServer();
let dir: string;
let flow: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wes-interval-'));
  flow = join(dir, 'flow.json');
  writeFileSync(flow, JSON.stringify({ '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MESSAGE = 'it must be a number of seconds from 0.05 to 3600, e.g. --interval 2.';

describe('--interval: one set of accepted values, one message', () => {
  const verbs = (): string[][] => [
    ['jobs', 'watch', 'j-1'],
    ['jobs', 'submit', flow, '--wait'],
    ['legacy', 'status', 'p-1', '--wait'],
    ['legacy', 'watch', 'p-1'],
    ['legacy', 'prompt', flow, '--wait'],
  ];

  it.each(['0.01', '0', '-1', '3601', 'soon', ''])('%j is refused with exit 2 by every following verb, before any request', async (bad) => {
    for (const verb of verbs()) {
      const before = totalRequests(dev.server);
      const res = await wes(dev.server, [...verb, '--interval', bad]);
      expect(res.code, `${verb.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(`option '--interval <seconds>' argument '${bad}' is invalid. ${MESSAGE}`);
      expect(totalRequests(dev.server)).toBe(before);
    }
  });
});
