// Setup of the tests that need one config folder kept across commands (the job history and the
// model-id cache live in its state/ folder): a dev-server, a temp folder, and `run`.
import { afterAll } from 'vitest';
import { useDevServer } from '../helpers/dev-server.js';
import { tempConfigDir, type RunResult } from '../helpers/cli.js';
import { useTempDir, wesAgainst, type Wes } from './jobs-env.js';

export function useKeptConfig() {
  const ctx = useDevServer();
  const wes: Wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();
  const cfg = tempConfigDir();
  afterAll(() => cfg.cleanup());
  const run = (args: string[]): Promise<RunResult> => wes(args, { configDir: cfg.dir });
  return { ctx, wes, dir, cfg, run };
}
