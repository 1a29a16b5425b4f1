// The built CLI verifies downloads and hashes uploads the same way on both blake3 paths: the
// native binding (default when installed) and the WASM fallback (WES_BLAKE3=wasm). Spawned: the
// choice is the process's, and the binding must resolve from dist/ as a user's install has it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blake3OfFile } from '../../src/util/blake3.js';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('blake3 on both paths through the CLI', () => {
  const ctx = useDevServer({});
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  for (const [path, env] of [['native (default)', {}], ['wasm (forced)', { WES_BLAKE3: 'wasm' }]] as const) {
    it(`${path}: a multi-MiB download is verified and an upload carries the file's hash`, async () => {
      const id = (await submitJob(ctx.server, bytesWorkflow(3 * 1024 * 1024 + 7))).body.id as string;
      const job = await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
      const out = join(dir(), `${env.WES_BLAKE3 ?? 'default'}-out`);
      const res = await wes(['jobs', 'download', id, out, '--json'], { env, spawn: true });
      expect(res.code, res.stderr).toBe(0);
      const [saved] = JSON.parse(res.stdout) as Array<{ path: string; hash: string; verified: boolean }>;
      expect(saved.verified).toBe(true);
      expect(saved.hash).toBe(job.outputs[0].hash ?? saved.hash);
      expect(await blake3OfFile(saved.path, 'wasm')).toBe(saved.hash);

      const file = writeTemp(dir(), readFileSync(saved.path).subarray(0, 2_000_003), 'bin');
      const upload = await wes(['assets', 'upload', file, '--json'], { env, spawn: true });
      expect(upload.code, upload.stderr).toBe(0);
      expect(JSON.parse(upload.stdout).hash).toBe(await blake3OfFile(file, 'wasm'));
    });
  }
});
