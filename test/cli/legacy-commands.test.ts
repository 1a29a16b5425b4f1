// `wes legacy` REST commands run in-process against the dev-server's cloud API v1.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeGradientPng } from '../../src/dev-server/models/stock/png.js';
import { addFaults, startFast } from '../helpers/dev-server.js';
import { failingWorkflow, longWorkflow, sampleWorkflow, statusOf, submit, waitForStatus } from '../dev-server/legacy-kit.js';
import { countOf, LEGACY_KEY, useLegacyServer, wes } from './legacy-kit.js';

const kit = useLegacyServer({ apiKey: LEGACY_KEY, faults: true, stepMs: 4, inactiveKeys: ['k-inactive'], noCreditKeys: ['k-broke'] }, 'wes-legacy-');
const DEPRECATION = /deprecated cloud API v1/g;

describe('wes legacy object-info', () => {
  it('lists classes once with the deprecation note, which --quiet hides', async () => {
    const res = await kit.wes(['legacy', 'object-info']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(expect.arrayContaining(['Sample', 'SaveImage', 'LoadImage']));
    expect(res.stderr.match(DEPRECATION)).toHaveLength(1);
    expect(res.stderr).toContain('v2 equivalent');
    const quiet = await kit.wes(['legacy', 'object-info', '--quiet']);
    expect(quiet.stderr).toBe('');
  });

  it('shows one class\'s inputs, prints raw JSON with --json, and exits 5 for an unknown class', async () => {
    const one = await kit.wes(['legacy', 'object-info', 'Sample']);
    expect(one.stdout).toMatch(/^steps\tINT\t20\t1\.\.150\trequired$/m);
    expect(one.stdout).toMatch(/^sampler_name\tCOMBO\t"euler"\teuler \| euler_ancestral/m);
    const json = await kit.wes(['legacy', 'object-info', 'SaveImage', '--json']);
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['SaveImage']);
    const unknown = await kit.wes(['legacy', 'object-info', 'Sampl']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('did you mean Sample');
  });
});

describe('wes legacy upload', () => {
  it('sends the multipart fields image, type and overwrite', async () => {
    const first = kit.file('cat.png', encodeGradientPng(4, 4, 1));
    const res = await kit.wes(['legacy', 'upload', first]);
    expect(res).toMatchObject({ code: 0, stdout: 'cat.png\n' });
    expect(kit.server.state.blobs.findAssetByPath('cat.png')?.size_bytes).toBe(readFileSync(first).length);
    const changed = kit.file('cat.png', encodeGradientPng(4, 4, 2));
    expect((await kit.wes(['legacy', 'upload', changed])).stdout).toBe('cat (1).png\n');
    expect((await kit.wes(['legacy', 'upload', changed, '--overwrite'])).stdout).toBe('cat.png\n');
    const temp = await kit.wes(['legacy', 'upload', changed, '--type', 'temp', '--json']);
    expect(JSON.parse(temp.stdout)).toEqual({ name: 'cat.png', subfolder: '', type: 'temp' });
  });

  it('uploads a mask with original_ref, and checks the reference locally first', async () => {
    const mask = kit.file('cat-mask.png', encodeGradientPng(4, 4, 3));
    const byName = await kit.wes(['legacy', 'upload', mask, '--mask', '--original', 'cat.png']);
    expect(byName).toMatchObject({ code: 0, stdout: 'cat-mask.png\n' });
    const byRef = await kit.wes(['legacy', 'upload', mask, '--mask', '--original', '{"filename":"cat.png","subfolder":"","type":"input"}', '--json']);
    expect(JSON.parse(byRef.stdout)).toMatchObject({ name: 'cat-mask.png', subfolder: '' });
    expect((await kit.wes(['legacy', 'upload', mask, '--mask'])).code).toBe(2);
    expect((await kit.wes(['legacy', 'upload', mask, '--mask', '--original', '{"filename":'])).code).toBe(2);
    const unknown = await kit.wes(['legacy', 'upload', mask, '--mask', '--original', 'ghost.png']);
    expect(unknown.code).toBe(6);
    expect(unknown.stderr).toContain('not known');
    expect((await kit.wes(['legacy', 'upload', join(kit.dir, 'missing.png')])).code).toBe(2);
  });
});

describe('wes legacy prompt', () => {
  it('refuses a UI-format workflow locally with exit 2', async () => {
    const before = countOf(kit.server, 'POST /api/prompt');
    const res = await kit.wes(['legacy', 'prompt', kit.file('ui.json', JSON.stringify({ nodes: [], links: [] }))]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('UI format');
    expect(countOf(kit.server, 'POST /api/prompt')).toBe(before);
  });

  it('shows the node errors of a refused workflow as a table, exit 6', async () => {
    const bad = { ...sampleWorkflow(2), '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 999, seed: 1, denoise: 1, sampler_name: 'nope' } } };
    const path = kit.file('bad.json', JSON.stringify(bad));
    const res = await kit.wes(['legacy', 'prompt', path]);
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(/^2\tSample\tvalue_bigger_than_max\t/m);
    expect(res.stderr).toMatch(/^2\tSample\tvalue_not_in_list\t/m);
    const json = await kit.wes(['legacy', 'prompt', path, '--json']);
    expect(JSON.parse(json.stderr.trim().split('\n').pop()!).error.details.node_errors['2'].class_type).toBe('Sample');
  });

  it('submits from stdin, prints the prompt id, and puts the partner key in extra_data', async () => {
    const res = await kit.wes(['legacy', 'prompt', '-', '--partner-key', 'org-key-1'], { input: JSON.stringify(sampleWorkflow(1, 'stdin')) });
    expect(res.code, res.stderr).toBe(0);
    const id = res.stdout.trim();
    expect(kit.server.state.engine.get(id)?.extraData).toEqual({ api_key_comfy_org: 'org-key-1' });
    const fromEnv = await kit.wes(['legacy', 'prompt', kit.file('flow.json', JSON.stringify(sampleWorkflow(1)))], { env: { WES_PARTNER_KEY: 'org-key-2' } });
    expect(kit.server.state.engine.get(fromEnv.stdout.trim())?.extraData).toEqual({ api_key_comfy_org: 'org-key-2' });
    const without = await kit.wes(['legacy', 'prompt', join(kit.dir, 'flow.json')]);
    expect(kit.server.state.engine.get(without.stdout.trim())?.extraData).toEqual({});
  });

  it('--wait follows the status: exit 0 on success, 3 on failure', async () => {
    const ok = await kit.wes(['legacy', 'prompt', kit.file('ok.json', JSON.stringify(sampleWorkflow(2, 'waited'))), '--wait', '--interval', '0.05', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ prompt_id: expect.any(String), status: 'success' });
    const failed = await kit.wes(['legacy', 'prompt', kit.file('fail.json', JSON.stringify(failingWorkflow())), '--wait', '--interval', '0.05']);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toContain('ended with status error');
  });
});

describe('wes legacy status', () => {
  it('treats names it has never seen as in flight while waiting', async () => {
    const id = await submit(kit.server, sampleWorkflow(3, 'unknown-names'));
    await addFaults(kit.server, [{ match: 'GET /api/job/*/status', action: 'status', status: 200, body: { status: 'warming_up_gpu' }, count: 3 }]);
    const res = await kit.wes(['legacy', 'status', id, '--wait', '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('success\n');
    expect(res.stderr).toContain('warming_up_gpu');
  });

  it('prints the plain status, exits 5 for an unknown id and 10 for a cancelled prompt', async () => {
    const id = await submit(kit.server, sampleWorkflow(1, 'plain'));
    await waitForStatus(kit.server, id, ['success']);
    const json = await kit.wes(['legacy', 'status', id, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, status: 'success', error_message: null });
    expect((await kit.wes(['legacy', 'status', 'no-such-prompt'])).code).toBe(5);
    const long = await submit(kit.server, longWorkflow('to-cancel'));
    kit.server.state.engine.cancel(long);
    const cancelled = await kit.wes(['legacy', 'status', long, '--wait', '--interval', '0.05']);
    expect(cancelled.code).toBe(10);
    expect(cancelled.stdout).toBe('cancelled\n');
  });

  it('exits 3 for a lost prompt', async () => {
    // Expired jobs stay readable for one more retention period: long enough for a slow spawn.
    const short = await startFast({ retentionMs: 800, stepMs: 20 });
    try {
      const id = await submit(short, longWorkflow('lost', 2));
      const res = await wes(short, ['legacy', 'status', id, '--wait', '--interval', '0.05']);
      expect(res.code).toBe(3);
      expect(res.stdout).toBe('lost\n');
      expect(res.stderr).toContain('submit it again');
    } finally {
      await short.close();
    }
  });
});

describe('wes legacy queue, queue delete, interrupt', () => {
  it('tables the queue, deletes a pending prompt and interrupts the running one', async () => {
    const running = await submit(kit.server, longWorkflow('q-run'));
    const pending = await submit(kit.server, sampleWorkflow(2, 'q-wait'));
    await waitForStatus(kit.server, running, ['executing']);
    const table = await kit.wes(['legacy', 'queue']);
    expect(table.stdout).toMatch(new RegExp(`^running\\t\\d+\\t${running}\\t8\\t99$`, 'm'));
    expect(table.stdout).toMatch(new RegExp(`^pending\\t\\d+\\t${pending}\\t3\\t3$`, 'm'));
    const json = JSON.parse((await kit.wes(['legacy', 'queue', '--json'])).stdout);
    expect(json.queue_running[0][1]).toBe(running);

    const deleted = await kit.wes(['legacy', 'queue', 'delete', pending, 'not-a-prompt']);
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain(`deleted 1 pending prompt(s): ${pending}`);
    expect(deleted.stderr).toContain('not in the queue (ended, or unknown), left alone: not-a-prompt');
    expect(await statusOf(kit.server, pending)).toBe('cancelled');

    const interrupted = await kit.wes(['legacy', 'interrupt']);
    expect(interrupted.stderr).toContain(`interrupted ${running}`);
    await waitForStatus(kit.server, running, ['cancelled']);
    expect(JSON.parse((await kit.wes(['legacy', 'interrupt', '--json'])).stdout)).toEqual({ interrupted: [] });
  });
});

describe('wes legacy view', () => {
  it('fetches the signed Location with no key, to a file or to stdout', async () => {
    const id = await submit(kit.server, sampleWorkflow(1, 'viewed'));
    await waitForStatus(kit.server, id, ['success']);
    const output = kit.server.state.engine.get(id)!.outputs[0]!;
    const expected = Buffer.concat(await kit.server.state.engine.openOutput(output).toArray());
    const target = join(kit.dir, 'viewed.png');
    const saved = await kit.wes(['legacy', 'view', output.name, '-o', target, '--verbose']);
    expect(saved.code).toBe(0);
    expect(readFileSync(target).equals(expected)).toBe(true);
    // The signed origin refuses any request with a key (400), so success shows none was sent;
    // the verbose lines show the signed hop without one.
    const signedHop = saved.stderr.slice(saved.stderr.indexOf(`> GET ${kit.server.signedOrigin}`));
    expect(signedHop).not.toMatch(/x-api-key/i);
    expect(saved.stderr).not.toContain(LEGACY_KEY);
    const piped = await kit.wes(['legacy', 'view', output.name]);
    expect(piped.stdoutBytes.equals(expected)).toBe(true);
    const missing = await kit.wes(['legacy', 'view', 'nothing.png']);
    expect(missing.code).toBe(5);
  });
});

describe('a failure after the prompt was accepted', () => {
  it('names the prompt as running on, with the command that follows it', async () => {
    await addFaults(kit.server, [{ match: 'GET /api/job/*/status', action: 'status', status: 404, body: 'gone', count: 1 }]);
    const res = await kit.wes(['legacy', 'prompt', kit.file('after.json', JSON.stringify(sampleWorkflow(1, 'after'))), '--wait']);
    expect(res.code).toBe(5);
    const id = res.stdout.trim();
    expect(res.stderr).toContain(`hint: prompt ${id} was accepted and runs on without wes: follow it with \`wes legacy watch ${id}\``);
    expect(kit.server.state.engine.get(id)).toBeDefined();
  });
});

describe('wes legacy view onto an existing file', () => {
  it('keeps a file with the same bytes (exit 0, nothing written), refuses other bytes unless --clobber', async () => {
    const id = await submit(kit.server, sampleWorkflow(1, 'again'));
    await waitForStatus(kit.server, id, ['success']);
    const output = kit.server.state.engine.get(id)!.outputs[0]!;
    const target = join(kit.dir, 'again.png');
    expect((await kit.wes(['legacy', 'view', output.name, '-o', target])).code).toBe(0);
    const before = statSync(target).mtimeMs;
    const same = await kit.wes(['legacy', 'view', output.name, '-o', target]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain(`kept the existing ${target} (the same bytes)`);
    expect(statSync(target).mtimeMs).toBe(before);
    writeFileSync(target, 'other bytes');
    const other = await kit.wes(['legacy', 'view', output.name, '-o', target]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('already exists with other bytes');
    expect(readFileSync(target, 'utf8')).toBe('other bytes');
    const clobbered = await kit.wes(['legacy', 'view', output.name, '-o', target, '--clobber']);
    expect(clobbered.code, clobbered.stderr).toBe(0);
    expect(readFileSync(target).equals(Buffer.concat(await kit.server.state.engine.openOutput(output).toArray()))).toBe(true);
  });
});

describe('v1 errors', () => {
  it('maps 401, 402, 429 and 500 to exit codes with the body\'s message', async () => {
    const flow = kit.file('err.json', JSON.stringify(sampleWorkflow(1)));
    const unauthorized = await kit.wes(['legacy', 'queue'], { key: 'wrong-key' });
    expect(unauthorized.code).toBe(4);
    const broke = await kit.wes(['legacy', 'prompt', flow], { key: 'k-broke' });
    expect(broke.code).toBe(9);
    expect(broke.stderr).toContain('Insufficient credits');
    const inactive = await kit.wes(['legacy', 'prompt', flow], { key: 'k-inactive' });
    expect(inactive.code).toBe(7);
    expect(inactive.stderr).toContain('subscription inactive');
    await addFaults(kit.server, [{ match: 'POST /api/prompt', action: 'status', status: 500, body: { error: { type: 'internal_error', message: 'engine on fire' } } }]);
    const broken = await kit.wes(['legacy', 'prompt', flow]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('engine on fire');
  });
});
