// The package as a library, imported the way a user's script would: a folder with
// node_modules/wes linked to this package, `import { ... } from 'wes'` resolved through
// package.json `exports`, run against a dev-server; and the declarations type-check a consumer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../..');
const dev = useDevServer();
let project: string;

const SCRIPT = `
import { createClients, HttpClient, JobsClient, ApiError, ExitCode, isTerminal } from 'wes';

const [base, key, workflow] = process.argv.slice(2);
const { jobs, models, legacy, close } = createClients({ baseUrl: base, apiKey: key, retries: 1 });
let current = await jobs.submit({ workflow: JSON.parse(workflow) }, 'library-test-key');
const submittedId = current.job.id;
while (!isTerminal(current.job.status)) {
  await new Promise((r) => setTimeout(r, 20));
  current = await jobs.refresh(current);
}
const page = await models.listPage({ limit: 3 });
const queue = await legacy.queue();
let missing = null;
try {
  await jobs.get('00000000-0000-0000-0000-000000000001');
} catch (err) {
  missing = { apiError: err instanceof ApiError, exitCode: err.exitCode, notFound: ExitCode.NOT_FOUND, code: err.code };
}
const direct = new JobsClient(new HttpClient({ baseUrl: base, routerUrl: base, apiKey: key }));
const again = await direct.get(submittedId);
let refused = null;
try {
  await createClients({ baseUrl: base, apiKey: 'wrong-key' }).jobs.get(submittedId);
} catch (err) {
  refused = { exitCode: err.exitCode, code: err.code };
}
await close();
console.log(JSON.stringify({
  status: current.job.status,
  outputs: current.job.outputs.length,
  sameJob: again.job.id === submittedId,
  models: page.data.length,
  queueRunning: Array.isArray(queue.queue_running),
  missing,
  refused,
}));
`;

const CONSUMER = `
import { createClients, JobsClient, type FetchedJob, type Job, type ClientOptions } from 'wes';

const options: ClientOptions = { baseUrl: 'http://127.0.0.1:8188', apiKey: 'k' };
const clients = createClients(options);
const fetched: Promise<FetchedJob> = clients.jobs.get('id');
const status = (job: Job): string => job.status;
const direct: JobsClient = clients.jobs;
// @ts-expect-error: ids are strings, so the declarations are real types, not any
clients.jobs.get(42);
export { fetched, status, direct };
`;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'wes-lib-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(REPO, join(project, 'node_modules', 'wes'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-script', type: 'module', private: true }));
  writeFileSync(join(project, 'use.mjs'), SCRIPT);
  writeFileSync(join(project, 'consumer.ts'), CONSUMER);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("import ... from 'wes'", () => {
  it('runs a job, lists models, reads the v1 queue and decodes errors like the CLI', async () => {
    const { stdout } = await run(process.execPath, ['use.mjs', dev.server.url, dev.server.apiKey!, JSON.stringify(imageWorkflow({ steps: 2 }))], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      status: 'succeeded',
      outputs: 1,
      sameJob: true,
      models: 3,
      queueRunning: true,
      missing: { apiError: true, exitCode: 5, notFound: 5, code: 'not_found' },
      refused: { exitCode: 4, code: 'unauthorized' },
    });
  });

  it('type-checks a TypeScript consumer against the published declarations', async () => {
    const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', '--types', 'node', '--typeRoots', join(REPO, 'node_modules', '@types'), 'consumer.ts'];
    const result = await run(process.execPath, [tsc, ...args], { cwd: project }).catch((err: { stdout: string }) => ({ stdout: err.stdout, failed: true }));
    expect(result.stdout).toBe('');
    expect('failed' in result).toBe(false);
  });
});
