// A large download tells a person how it goes on stderr (plain lines when not on a terminal),
// and stdout still carries only the saved paths.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

describe('download progress', () => {
  const ctx = useDevServer();
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('announces a large download on stderr; --quiet and --json keep stderr free of it', async () => {
    const id = (await submitJob(ctx.server, bytesWorkflow(9 << 20))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const res = await wes(['jobs', 'download', id, join(dir(), 'big')]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.split('\n')[0]).toBe('downloading 1 file');
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    const quiet = await wes(['jobs', 'download', id, join(dir(), 'quiet'), '--quiet']);
    expect(quiet.stderr).not.toContain('downloading');
  });
});
