// A huge value (the user's, echoed back by the service) is shown cut to a readable length with a
// note, however many places of the error quote it; --json keeps the service's text whole.
import { describe, expect, it } from 'vitest';
import { bounded } from '../../src/render/bounded.js';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';

const holder = useDevServer();
const wes = wesAgainst(() => holder.server);
const dir = useTempDir();
const HUGE = 'x'.repeat(120_000);

describe('bounded echoes', () => {
  it('a refused 120 KB input value: the error stays a few KB and says what it left out', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'huge', steps: 1 }));
    const res = await wes(['jobs', 'submit', flow, '--set', `2.sampler_name=${HUGE}`]);
    expect(res.code).toBe(6);
    expect(res.stderr.length).toBeLessThan(5_000);
    expect(res.stderr).toMatch(/more characters not shown/);
    expect(res.stderr).toContain('value_not_in_list');
  });

  it('--json: the error object keeps the message whole', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'huge-json', steps: 1 }));
    const res = await wes(['jobs', 'submit', flow, '--json', '--set', `2.sampler_name=${HUGE}`]);
    expect(res.code).toBe(6);
    expect(JSON.parse(res.stderr).error.message).toContain(HUGE);
  });

  it('cuts on a code point and counts what it left out', () => {
    expect(bounded('short')).toBe('short');
    const emoji = '😀'.repeat(10);
    const cut = bounded(emoji, 5);
    expect(cut.startsWith('😀😀')).toBe(true);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(cut).toMatch(/… \(16 more characters not shown\)$/);
  });
});
