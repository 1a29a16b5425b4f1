// The hints that used to point the wrong way, and `wes version`, through the built binary
// against an in-process dev-server.
import { createServer } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { runWes } from '../helpers/cli.js';
import { failWorkflow, interruptWhen, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';
import { shownSchemaUrl } from '../../src/commands/models/show.js';

describe('wes version', () => {
  it('prints the version, Node.js and the platform; --json as an object', async () => {
    const human = await runWes(['version']);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(`wes ${(await runWes(['--version'])).stdout.trim().replace(/^wes /, '')} (node ${process.versions.node}, ${process.platform}-${process.arch})\n`);
    const json = await runWes(['version', '--json']);
    expect(json.code).toBe(0);
    const info = JSON.parse(json.stdout);
    expect(info).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), node: process.versions.node, platform: `${process.platform}-${process.arch}`, blake3: expect.stringMatching(/^(native|wasm)$/), build: 'npm' });
  });
});

describe('hints that point the right way', () => {
  const ctx = useDevServer({ faults: true, maxBodyBytes: 64 * 1024 });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('a 413 on submit names the size limit and assets, not a malformed asset request', async () => {
    const big = imageWorkflow();
    big['9'] = { class_type: 'SaveText', inputs: { text: 'x'.repeat(100 * 1024) } };
    const res = await wes(['jobs', 'submit', writeTemp(dir(), big)]);
    expect(res.code).toBe(6);
    expect(res.stderr).toContain('HTTP 413');
    expect(res.stderr).toMatch(/hint: the request body is over the service's size limit; .*--set NODE\.INPUT=@FILE/);
    expect(res.stderr).not.toContain('asset request as malformed');
  });

  it('a base URL that already ends in /api/v2 gets "check the base URL", not "check the id"', async () => {
    const res = await wes(['jobs', 'get', '0b4d5e2a-0000-4000-8000-000000000000'], { baseUrl: `${ctx.server.url}/api/v2` });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('hint: check the base URL: the request went to /api/v2/api/v2/jobs/');
    expect(res.stderr).not.toContain('check the id');
    const plain = await wes(['jobs', 'get', '0b4d5e2a-0000-4000-8000-000000000000']);
    expect(plain.stderr).toContain('check the id');
  });

  it('after submit --wait the traceback hint names `wes jobs get ID --verbose`, never a bare --verbose', async () => {
    const res = await wes(['jobs', 'submit', writeTemp(dir(), failWorkflow()), '--wait']);
    expect(res.code).toBe(3);
    const id = res.stdout.trim();
    expect(res.stderr).toContain(`(traceback hidden; show it with: wes jobs get ${id} --verbose)`);
    expect(res.stderr).not.toContain('add --verbose');
    const get = await wes(['jobs', 'get', id, '--verbose']);
    expect(get.stdout).toContain('Traceback');
  });

  it('the example model of `wes --help` exists on the dev-server', async () => {
    const help = await runWes(['--help']);
    const model = /wes models run (\S+)/.exec(help.stdout)?.[1];
    expect(model).toBe('dev/echo');
    const res = await wes(['models', 'run', model!, '-d', '{"prompt":"hi"}']);
    expect(res.code, res.stderr).toBe(0);
  });

  it('a download that saved nothing says so with ✗, never ✓ saved 0 of 1', async () => {
    const id = (await submitJob(ctx.server, imageWorkflow({ prefix: 'lost' }))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    await addFaults(ctx.server, { match: 'GET /signed/**', action: 'status', status: 404, count: 10 });
    const out = join(dir(), 'lost');
    const res = await wes(['jobs', 'download', id, out, '--retries', '0']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('✗ saved only 0 of 1 output(s)');
    expect(res.stderr).not.toContain('✓');
    expect(readdirSync(out)).toEqual(['job.json']);
  });

  it('models show gives the schema URL in the scheme the router speaks', async () => {
    const res = await wes(['models', 'show', 'dev/upscale']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`input schema\t${ctx.server.url}/v1/models/dev/upscale/openapi.json`);
    expect(shownSchemaUrl('https://cdn.example/s.json', new URL('http://127.0.0.1:1/v1/models/a/b/openapi.json'))).toBe('https://cdn.example/s.json');
  });
});

describe('wes dev-server start-up messages', () => {
  it('a busy port exits 1 and suggests --port 0', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as { port: number }).port;
    try {
      const res = await runWes(['dev-server', '--port', String(port), '--quiet-log']);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`port ${port} on 127.0.0.1 (--port) is already in use`);
      expect(res.stderr).toContain('--port 0');
      // The job API's own listener of a self-hosted server: the port and flag that were taken.
      const jobs = await runWes(['dev-server', '--surface', 'self-hosted', '--jobs-port', String(port), '--port', '0', '--quiet-log']);
      expect(jobs.code).toBe(1);
      expect(jobs.stderr).toContain(`port ${port} on 127.0.0.1 (--jobs-port) is already in use`);
      expect(jobs.stderr).toContain('--jobs-port 0');
    } finally {
      holder.close();
    }
  });

  it('--host 0.0.0.0 says how other machines reach it, not only 127.0.0.1', async () => {
    const res = await runWes(['dev-server', '--host', '0.0.0.0', '--port', '0', '--quiet-log'], { onSpawn: interruptWhen(/Stop with Ctrl-C/) });
    expect(res.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(res.stderr).toMatch(/Listening on every interface: from other machines use http:\/\/\S+:\d+/);
  });
});
