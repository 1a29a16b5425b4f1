// An output that cannot be written (`> /dev/full`, a full disk) while a command is working: the
// command stops as on Ctrl-C and says so once, with exit 1 (runtime/output-streams.ts, program.ts);
// one already stopping keeps its own stop; a batch whose results were that output says it cannot
// be resumed from them rather than name lines that were never written.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../src/program.js';
import { spawnWes, tempConfigDir, WES_BIN } from '../helpers/cli.js';
import { imageWorkflow, submitJob, useDevServer } from '../helpers/dev-server.js';
import { testIO } from '../helpers/test-io.js';
import { until } from '../helpers/until.js';

const dev = useDevServer({ stepMs: 100 });
// The batch's own server: the watch tests leave their long jobs running on the first one's queue.
const batchDev = useDevServer();
const env = (server = dev.server) => ({ WES_BASE_URL: server.url, WES_API_KEY: server.apiKey! });
/** What stdout's write answers on a full disk. */
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });

describe('an output that cannot be written', () => {
  it('stops a watch with one output_failed stop, exit 1, told to the process so it adds nothing as it ends', async () => {
    const submitted = await submitJob(dev.server, imageWorkflow({ steps: 100 }));
    const id = submitted.body.id as string;
    const config = tempConfigDir();
    try {
      const io = testIO();
      const readerGone = new AbortController();
      let handled = 0;
      const done = runProgram({ ...io, argv: ['jobs', 'watch', id, '--json'], env: { ...env(), WES_CONFIG_DIR: config.dir }, interrupt: new AbortController().signal, readerGone: readerGone.signal, outputFailureHandled: () => handled++ });
      await until(() => io.stdout.text().length > 0);
      readerGone.abort(enospc());
      expect(await done).toBe(1);
      expect(handled).toBe(1);
      const error = JSON.parse(io.stderr.text().trim().split('\n').at(-1)!).error;
      expect(error).toMatchObject({ code: 'output_failed', message: expect.stringContaining('stopped: the output cannot be written (ENOSPC') });
      expect(error.details.resume).toContain(`jobs watch ${id}`);
    } finally {
      config.cleanup();
    }
  });

  it('leaves a command already stopping by Ctrl-C with its own stop and code (130), and says nothing more', async () => {
    const submitted = await submitJob(dev.server, imageWorkflow({ steps: 100 }));
    const config = tempConfigDir();
    try {
      const io = testIO();
      const interrupt = new AbortController();
      const readerGone = new AbortController();
      let handled = 0;
      const done = runProgram({ ...io, argv: ['jobs', 'watch', submitted.body.id as string, '--json'], env: { ...env(), WES_CONFIG_DIR: config.dir }, interrupt: interrupt.signal, readerGone: readerGone.signal, outputFailureHandled: () => handled++ });
      await until(() => io.stdout.text().length > 0);
      interrupt.abort();
      readerGone.abort(enospc());
      expect(await done).toBe(130);
      expect(handled).toBe(1);
      const lines = io.stderr.text().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!).error.code).toBe('interrupted');
    } finally {
      config.cleanup();
    }
  });

  it.skipIf(!existsSync('/dev/full'))('a batch whose results went to that output says it cannot be resumed from them, and names wes jobs list', async () => {
    const config = tempConfigDir();
    try {
      const batch = join(config.dir, 'jobs.jsonl');
      writeFileSync(batch, `${JSON.stringify(imageWorkflow({ steps: 2 }))}\n`.repeat(3));
      const res = await spawnWes(['jobs', 'submit', '--batch', batch], { env: env(batchDev.server), configDir: config.dir, program: ['/bin/sh', '-c', 'exec "$@" >/dev/full', 'sh', process.execPath, WES_BIN] });
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toContain('stopped: the output cannot be written (ENOSPC');
      expect(res.stderr).toContain('cannot be resumed');
      expect(res.stderr).toContain('wes jobs list');
      expect(res.stderr).not.toContain('--resume');
    } finally {
      config.cleanup();
    }
  });
});
