// A self-hosted job API server in front of an engine, as people run the reference server: the job
// API on its own port (base_url), the engine's v1 API on another (engine_url). One profile holds
// both, every command goes to the right one, and `wes doctor` says which families each serves,
// passing when those work.
import { describe, expect, it } from 'vitest';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { useTempDir, writeTemp } from './jobs-env.js';

interface Check {
  check: string;
  family: string | null;
  status: 'pass' | 'warn' | 'fail' | 'skip';
  detail: string;
  hint: string | null;
}

describe('a job API server (base URL) in front of an engine (engine URL)', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', jobsPort: 0, stepMs: 2 });
  const dir = useTempDir();
  const jobsUrl = () => ctx.server.jobsUrl!;
  const engineUrl = () => ctx.server.url;

  it('doctor on the job API server alone: jobs pass, the others are said not served there (with the setting that finds them), exit 0', async () => {
    const res = await runWes(['doctor', '--json'], { env: { WES_BASE_URL: jobsUrl() } });
    expect(res.code, res.stdout).toBe(0);
    const checks = JSON.parse(res.stdout) as Check[];
    const reach = (family: string) => checks.find((c) => c.check === 'reachable' && c.family === family)!;
    expect(reach('jobs').status).toBe('pass');
    expect(reach('legacy')).toMatchObject({ status: 'warn', detail: expect.stringContaining('which serves jobs'), hint: expect.stringContaining('engine_url') });
    expect(reach('models').status).toBe('warn');
  });

  it('with engine_url: doctor finds the engine there too; legacy commands go to the engine, jobs to the job API server', async () => {
    const doctor = await runWes(['doctor', '--json'], { env: { WES_BASE_URL: jobsUrl(), WES_ENGINE_URL: engineUrl() } });
    expect(doctor.code, doctor.stdout).toBe(0);
    const checks = JSON.parse(doctor.stdout) as Check[];
    expect(checks.find((c) => c.check === 'reachable' && c.family === 'legacy')!.status).toBe('pass');

    const cfg = tempConfigDir();
    try {
      // One profile, two URLs.
      for (const [key, value] of [['base_url', jobsUrl()], ['engine_url', engineUrl()]] as const) {
        expect((await runWes(['config', 'set', key, value], { configDir: cfg.dir, env: {} })).code).toBe(0);
      }
      const flow = writeTemp(dir(), imageWorkflow({ prefix: 'two-servers', steps: 1 }));
      const job = await runWes(['jobs', 'submit', flow, '--wait'], { configDir: cfg.dir, env: {} });
      expect(job.code, job.stderr).toBe(0);
      const queue = await runWes(['legacy', 'queue', '--json'], { configDir: cfg.dir, env: {} });
      expect(queue.code, queue.stderr).toBe(0);
      expect(JSON.parse(queue.stdout)).toHaveProperty('queue_running');
      const info = await runWes(['legacy', 'object-info', 'EmptyImage', '--json'], { configDir: cfg.dir, env: {} });
      expect(info.code, info.stderr).toBe(0);
    } finally {
      cfg.cleanup();
    }
  });
});
