// `wes jobs get` of a running job on the self-hosted job API server: the reference server (and the
// dev-server imitating it) polls a running job as progress {value: 0, nodes_done: 0, nodes_total: 0},
// as it did in front of a real ComfyUI 0.3.64. That is "not known", not "0% · nodes 0/0".
import { describe, expect, it } from 'vitest';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('jobs get of a running job on the self-hosted server', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', stepMs: 100 });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('says the polled progress is not known and where it is, instead of "0% · nodes 0/0"', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ steps: 150, prefix: 'polled' }));
    const sub = await wes(['jobs', 'submit', flow]);
    expect(sub.code, sub.stderr).toBe(0);
    const id = sub.stdout.trim();
    await until(() => ctx.server.state.engine.get(id)?.status === 'running', 'the job to run');
    const raw = JSON.parse((await wes(['jobs', 'get', id, '--json'])).stdout);
    expect(raw.progress).toEqual({ value: 0, nodes_done: 0, nodes_total: 0 });
    const res = await wes(['jobs', 'get', id]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^progress\\tnot known from a poll \\(wes jobs watch ${id} streams it\\)$`, 'm'));
    expect(res.stdout).not.toContain('nodes 0/0');
    await wes(['jobs', 'cancel', id]);
  });
});
