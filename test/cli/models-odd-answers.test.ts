// Answers of the published router that are not a JSON output: a partner's own bytes (raw into a
// pipe, saved under the media type's extension with -o / --download, never written raw to a
// terminal), a 413, a bucket wes does not know (its name shown), and the provider's reason for
// refusing a request (upstream_detail).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes, type RunOptions } from '../helpers/cli.js';
import { routerError, useRawRouter } from './models-raw-router.js';

const raw = useRawRouter();
const AUDIO = Buffer.concat([Buffer.from('ID3\x04\x00\x00'), Buffer.from([0x1b, 0x5b, 0x32, 0x4a, 0x00, 0xff, 0xfe, 0x07])]); // control bytes included
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wes-models-odd-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const wes = (args: string[], opts: RunOptions = {}) => runWes(args, { ...opts, env: { WES_BASE_URL: raw.server.url, WES_ROUTER_API: 'v2', WES_API_KEY: 'k-raw', ...opts.env } });
const audio = () => {
  raw.onRun = (_req, res) => res.writeHead(200, { 'content-type': 'audio/mpeg', 'x-content-type-options': 'nosniff', 'x-service-request-id': 'req-raw' }).end(AUDIO);
};

describe('a binary output', () => {
  it('goes into a pipe byte for byte, and into -o as it is', async () => {
    audio();
    const piped = await wes(['models', 'run', 'acme/chat', '-d', '{}']);
    expect(piped.code).toBe(0);
    expect(piped.stdoutBytes.equals(AUDIO)).toBe(true);
    const file = join(work, 'out.mp3');
    const saved = await wes(['models', 'run', 'acme/chat', '-d', '{}', '-o', file]);
    expect(saved.code).toBe(0);
    expect(readFileSync(file).equals(AUDIO)).toBe(true);
  });

  it('is never written raw to a terminal: it is saved in the working folder under the model name and the media type, each run a new file', async () => {
    audio();
    const folder = mkdtempSync(join(work, 'cwd-'));
    const previous = process.cwd();
    process.chdir(folder);
    try {
      for (const name of ['chat.mp3', 'chat (1).mp3']) {
        const r = await wes(['models', 'run', 'acme/chat', '-d', '{}'], { terminal: { stdoutTTY: true, stderrTTY: true } });
        expect(r.code).toBe(0);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`the output is audio/mpeg (${AUDIO.length} bytes), not text: saved it to ${name} instead of printing it (-o FILE names the file)`);
        expect(readFileSync(join(folder, name)).equals(AUDIO)).toBe(true);
      }
    } finally {
      process.chdir(previous);
    }
  });

  it('--download saves it into the folder by its media type, and stdout stays empty', async () => {
    audio();
    const dir = join(work, 'dl');
    const r = await wes(['models', 'run', 'acme/chat', '-d', '{}', '--download', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual(['chat.mp3']);
    expect(r.stderr).toContain(`saved ${join(dir, 'chat.mp3')} (${AUDIO.length} bytes, audio/mpeg)`);
  });

  it('an output without a media type is JSON when it parses, bytes otherwise', async () => {
    raw.onRun = (_req, res) => {
      res.removeHeader('content-type');
      res.writeHead(200, { 'x-service-request-id': 'req-raw' }).end('{"plain":true}');
    };
    const folder = mkdtempSync(join(work, 'cwd-'));
    const previous = process.cwd();
    process.chdir(folder);
    try {
      const json = await wes(['models', 'run', 'acme/chat', '-d', '{}'], { terminal: { stdoutTTY: true } });
      expect(json.stdout).toBe('{"plain":true}\n');
      raw.onRun = (_req, res) => res.writeHead(200, { 'x-service-request-id': 'req-raw' }).end(AUDIO);
      const bytes = await wes(['models', 'run', 'acme/chat', '-d', '{}'], { terminal: { stdoutTTY: true } });
      expect(bytes.stdout).toBe('');
      expect(readFileSync(join(folder, 'chat.bin')).equals(AUDIO)).toBe(true);
    } finally {
      process.chdir(previous);
    }
  });
});

describe('error answers of the published router', () => {
  it('413 says the input is over the size limit and how to send large files', async () => {
    raw.onRun = (_req, res) => routerError(res, 413, 'invalid_input');
    const r = await wes(['models', 'run', 'acme/chat', '-d', '{}']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/HTTP 413/);
    expect(r.stderr).toContain("hint: the input is over the router's request size limit; pass large files by URL");
  });

  it('an unknown bucket is handled as internal_error with its name shown; the new buckets have their own codes', async () => {
    raw.onRun = (_req, res) => routerError(res, 400, 'brand_new_bucket');
    const unknown = await wes(['models', 'run', 'acme/chat', '-d', '{}']);
    expect(unknown.code).toBe(1); // internal_error's exit code
    expect(unknown.stderr).toMatch(/the router sent an unknown error type brand_new_bucket; handled as internal_error/);
    raw.onRun = (_req, res) => routerError(res, 429, 'queue_backlog_full');
    const backlog = await wes(['--retries', '0', 'models', 'run', 'acme/chat', '-d', '{}']);
    expect(backlog.code).toBe(7);
    expect(backlog.stderr).toMatch(/too many of your queued requests are waiting; nothing was queued or charged/);
  });

  it("the provider's reason for refusing the request is shown, with its status kept in --json details", async () => {
    raw.onRun = (_req, res) =>
      routerError(res, 400, 'invalid_input', { upstream_detail: 'expected the height to be at least 300px, but received a 445x283px image instead' }, { 'x-service-upstream-status': '400' });
    const r = await wes(['models', 'run', 'acme/chat', '-d', '{}']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('error: refused: invalid_input (the provider said: expected the height to be at least 300px, but received a 445x283px image instead)');
    const asJson = await wes(['models', 'run', 'acme/chat', '-d', '{}', '--json']);
    expect(JSON.parse(asJson.stderr).error.details).toMatchObject({ upstream_detail: expect.stringContaining('300px'), upstream_status: 400 });
  });
});
