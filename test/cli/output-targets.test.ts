// Output targets are checked before anything is submitted or sent (exit 2, a plain sentence):
// a regular file where a folder is needed, a read-only folder, /proc/foo (which spun at 100% CPU
// in Node 20's mkdir -p), a folder where a file is needed. And no silent overwrite, as gh: a file
// with other bytes stops the command (exit 1, naming --clobber and --skip-existing), --clobber
// replaces, --skip-existing keeps.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesWorkflow, finishedJob, useDevServer, type Json } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from './jobs-env.js';
import { blake3File } from '../../src/files/blake3.js';

describe('output targets', () => {
  const ctx = useDevServer({ apiKey: 'k-output-targets-0123456789' });
  const wes = wesAgainst(() => ctx.server);
  const tmp = useTempDir();
  const jobsMade = () => ctx.server.state.engine.list().length;

  async function finishedBytes(): Promise<{ id: string; output: Json }> {
    const { id, job } = await finishedJob(ctx.server, bytesWorkflow(20_000));
    return { id, output: job.outputs[0] };
  }

  it('--download naming a regular file, or /proc/foo, is exit 2 before the job is submitted', async () => {
    const flow = writeTemp(tmp(), bytesWorkflow(10));
    const file = writeTemp(tmp(), 'not a folder', 'txt');
    const before = jobsMade();
    const onFile = await wes(['jobs', 'submit', flow, '--download', file]);
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toContain(`--download ${file} is a file, not a folder`);
    const underFile = await wes(['jobs', 'submit', flow, '--download', join(file, 'sub')]);
    expect(underFile.code).toBe(2);
    expect(underFile.stderr).toContain('is a file, not a folder');
    const proc = await wes(['jobs', 'submit', flow, '--wait', '--download', '/proc/foo'], { timeoutMs: 20_000 });
    expect(proc.code).toBe(2);
    expect(proc.stderr).toContain('--download /proc/foo: cannot write files in /proc');
    expect(jobsMade()).toBe(before);
  });

  it.skipIf(process.getuid?.() === 0)('a read-only folder is exit 2 before anything is sent (skipped as root, who may write into a read-only folder)', async () => {
    const flow = writeTemp(tmp(), bytesWorkflow(10));
    const readOnly = join(tmp(), 'read-only');
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    const before = jobsMade();
    const res = await wes(['jobs', 'submit', flow, '--download', readOnly]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('cannot write files in');
    expect(jobsMade()).toBe(before);
  });

  it('jobs download, legacy prompt and models run check their targets first', async () => {
    const { id } = await finishedBytes();
    const file = writeTemp(tmp(), 'x', 'txt');
    const download = await wes(['jobs', 'download', id, file]);
    expect(download.code).toBe(2);
    expect(download.stderr).toContain('is a file, not a folder');
    const prompt = await wes(['legacy', 'prompt', writeTemp(tmp(), bytesWorkflow(10)), '--previews', file]);
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toContain(`--previews ${file} is a file, not a folder`);
    const folder = join(tmp(), 'a-folder');
    mkdirSync(folder);
    const model = await wes(['models', 'run', 'dev/echo', '-d', '{"message":"hi"}', '-o', folder]);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain(`-o ${folder} is a folder, not a file`);
    const both = await wes(['jobs', 'download', id, join(tmp(), 'x'), '--clobber', '--skip-existing']);
    expect(both.code).toBe(2);
  });

  it('an existing file with other bytes stops the download (exit 1); --skip-existing keeps it; --clobber replaces it', async () => {
    const { id, output } = await finishedBytes();
    const out = join(tmp(), 'existing');
    mkdirSync(out);
    const target = join(out, output.name);
    writeFileSync(target, 'mine');
    const refused = await wes(['jobs', 'download', id, out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${target} already exists with other bytes`);
    expect(refused.stderr).toContain('--clobber');
    expect(refused.stderr).toContain('--skip-existing');
    expect(readFileSync(target, 'utf8')).toBe('mine');
    const kept = await wes(['jobs', 'download', id, out, '--skip-existing']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('mine');
    const replaced = await wes(['jobs', 'download', id, out, '--clobber']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(await blake3File(target)).toBe(output.hash);
  });

  it('assets download and models run -o refuse to overwrite silently too', async () => {
    const { output } = await finishedBytes();
    const target = join(tmp(), 'asset.bin');
    writeFileSync(target, 'other');
    const refused = await wes(['assets', 'download', output.id, target]);
    expect(refused.code).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('other');
    const same = await wes(['assets', 'download', output.id, target, '--clobber']);
    expect(same.code, same.stderr).toBe(0);
    const again = await wes(['assets', 'download', output.id, target]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already holds these bytes');

    const answer = join(tmp(), 'answer.json');
    writeFileSync(answer, 'earlier');
    const before = ctx.server.state.requestCounts.get('POST /v1/models/dev/echo') ?? 0;
    const model = await wes(['models', 'run', 'dev/echo', '-d', '{"message":"hi"}', '-o', answer]);
    expect(model.code).toBe(1);
    expect(model.stderr).toContain('--clobber');
    const skipped = await wes(['models', 'run', 'dev/echo', '-d', '{"message":"hi"}', '-o', answer, '--skip-existing']);
    expect(skipped.code).toBe(0);
    expect(readFileSync(answer, 'utf8')).toBe('earlier');
    expect(ctx.server.state.requestCounts.get('POST /v1/models/dev/echo') ?? 0).toBe(before);
    const clobbered = await wes(['models', 'run', 'dev/echo', '-d', '{"message":"hi"}', '-o', answer, '--clobber']);
    expect(clobbered.code, clobbered.stderr).toBe(0);
    expect(readFileSync(answer, 'utf8')).toContain('hi');
  });
});
