// `wes jobs submit` through the built binary against the dev-server (cloud deployment): local
// refusals before any request, --set values and files, the partner key, idempotency, --wait.
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow, getJson, useDevServer } from '../helpers/dev-server.js';
import { ndjson, seen, seenMatching, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('wes jobs submit', () => {
  const ctx = useDevServer({ faults: true });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('prints the job id (human) and the Job (--json)', async () => {
    const file = writeTemp(dir(), imageWorkflow());
    const human = await wes(['jobs', 'submit', file]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(human.stderr).toContain(`wes jobs watch ${human.stdout.trim()}`);
    const json = await wes(['jobs', 'submit', file, '--json']);
    expect(json.code).toBe(0);
    const job = JSON.parse(json.stdout);
    expect(job).toMatchObject({ status: expect.stringMatching(/queued|running/), urls: { self: `/api/v2/jobs/${job.id}` } });
  });

  it('reads the workflow from standard input with -', async () => {
    const res = await wes(['jobs', 'submit', '-', '--json'], { input: JSON.stringify(imageWorkflow()) });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a UI-format file locally: exit 2, export hint, no request', async () => {
    const before = seen(ctx.server, 'POST /api/v2/jobs');
    const file = writeTemp(dir(), { last_node_id: 2, nodes: [{ id: 1, type: 'EmptyImage' }], links: [], version: 0.4 });
    const res = await wes(['jobs', 'submit', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('UI format');
    expect(res.stderr).toMatch(/hint:.*API format/);
    expect(res.stdout).toBe('');
    expect(seen(ctx.server, 'POST /api/v2/jobs')).toBe(before);
  });

  it('refuses a file that is not JSON with its line and column (exit 2); --json gives the error object', async () => {
    const file = writeTemp(dir(), '{\n  "1": {"class_type": "EmptyImage",\n    "inputs": {"width": 8 "height": 8}}\n}');
    const res = await wes(['jobs', 'submit', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${file}:3:27: not valid JSON: expected ',' or '}'`);
    const json = await wes(['jobs', 'submit', file, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'usage', message: expect.stringContaining(':3:27:') });
  });

  it('says so when the file cannot be read', async () => {
    const res = await wes(['jobs', 'submit', `${dir()}/missing.json`]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no such file');
  });

  it('--set types values as JSON or string and refuses unknown nodes (exit 2)', async () => {
    const file = writeTemp(dir(), imageWorkflow());
    const res = await wes(['jobs', 'submit', file, '--set', '2.seed=42', '--set', '3.filename_prefix=cat', '--set', '2.steps=2', '--json']);
    expect(res.code).toBe(0);
    const id = JSON.parse(res.stdout).id;
    const stored = ctx.server.state.engine.get(id)!;
    expect(stored.workflow['2']!.inputs).toMatchObject({ seed: 42, steps: 2 });
    expect(stored.workflow['3']!.inputs.filename_prefix).toBe('cat');

    const bad = await wes(['jobs', 'submit', file, '--set', '9.seed=1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no node "9"');
    expect(bad.stderr).toContain('1, 2, 3');
  });

  it('--set NODE.INPUT=@FILE uploads once per file and puts the asset id; the same file twice sends its bytes once', async () => {
    const image = writeTemp(dir(), Buffer.from(`not really a png ${Date.now()}`), 'png');
    const flow = writeTemp(dir(), {
      '1': { class_type: 'LoadImage', inputs: { image: 'placeholder' } },
      '2': { class_type: 'LoadImage', inputs: { image: 'placeholder' } },
      '3': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'in' } },
    });
    const uploadsBefore = seen(ctx.server, 'POST /api/v2/assets');
    const fromHashBefore = seen(ctx.server, 'POST /api/v2/assets/from-hash');
    const headBefore = seenMatching(ctx.server, /^HEAD \/api\/v2\/assets\/by-hash\//);
    const res = await wes(['jobs', 'submit', flow, '--set', `1.image=@${image}`, '--set', `2.image=@${image}`, '--json']);
    expect(res.code, res.stderr).toBe(0);
    // Asked whether the bytes are there (no), then sent once; never minted from a hash it lacks.
    expect(seenMatching(ctx.server, /^HEAD \/api\/v2\/assets\/by-hash\//) - headBefore).toBe(1);
    expect(seen(ctx.server, 'POST /api/v2/assets/from-hash') - fromHashBefore).toBe(0);
    expect(seen(ctx.server, 'POST /api/v2/assets') - uploadsBefore).toBe(1);
    const stored = ctx.server.state.engine.get(JSON.parse(res.stdout).id)!;
    // The input went as the typed reference the published contract takes (the server resolves it
    // to the asset's file name for its engine; a bare asset id would have been refused as a file name).
    const assetId = /uploaded .* → asset (\S+)/.exec(res.stderr)?.[1];
    expect(assetId).toMatch(/^[0-9a-f-]{36}$/);
    const asset = ctx.server.state.blobs.getAsset(assetId!)!;
    expect(stored.workflow['1']!.inputs.image).toBe(asset.file_path);
    expect(stored.workflow['2']!.inputs.image).toBe(asset.file_path);

    // A second run: the service holds the blob, so no bytes go up.
    const again = await wes(['jobs', 'submit', flow, '--set', `1.image=@${image}`, '--set', `2.image=@${image}`]);
    expect(again.code).toBe(0);
    expect(seen(ctx.server, 'POST /api/v2/assets') - uploadsBefore).toBe(1);
    expect(again.stderr).toContain('already on the service');

    const missing = await wes(['jobs', 'submit', flow, '--set', `1.image=@${dir()}/nope.png`, '--set', `2.image=@${image}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });

  it('sends --partner-key / WES_PARTNER_KEY as extra_data.api_key_comfy_org', async () => {
    const flow = writeTemp(dir(), {
      '1': { class_type: 'PartnerCall', inputs: { prompt: 'a cat' } },
      '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'partner' } },
    });
    const withFlag = await wes(['--partner-key', 'pk-flag', 'jobs', 'submit', flow, '--json']);
    expect(ctx.server.state.engine.get(JSON.parse(withFlag.stdout).id)!.extraData).toEqual({ api_key_comfy_org: 'pk-flag' });
    const withEnv = await wes(['jobs', 'submit', flow, '--wait'], { env: { WES_PARTNER_KEY: 'pk-env' } });
    expect(withEnv.code, withEnv.stderr).toBe(0);
    const without = await wes(['jobs', 'submit', flow, '--wait']);
    expect(without.code).toBe(3);
    expect(without.stderr).toContain('api_key_comfy_org');
  });

  it('resends only what a 429 refused, with the same key; a key the service saw before is explained, never guessed at', async () => {
    const file = writeTemp(dir(), imageWorkflow({ seed: 11 }));
    await addFaults(ctx.server, { match: 'POST /api/v2/jobs', count: 2, action: 'status', status: 429, retry_after: 0, body: { error: { code: 'queue_full', message: 'try again' } } });
    // Pinned to Comfy Cloud's dialect: no `metadata`, so no refused submit teaches it first.
    const res = await wes(['jobs', 'submit', file, '--verbose'], { env: { WES_JOB_API: 'cloud' } });
    expect(res.code, res.stderr).toBe(0);
    const keys = [...res.stderr.matchAll(/> idempotency-key: (\S+)/g)].map((m) => m[1]);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    // Its label names the key, so a lost answer can be looked for.
    expect(ctx.server.state.engine.get(res.stdout.trim())).toBeDefined();

    const first = await wes(['jobs', 'submit', file, '--idempotency-key', 'fixed-key-1', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const other = writeTemp(dir(), imageWorkflow({ seed: 12 }));
    const reuse = await wes(['jobs', 'submit', other, '--idempotency-key', 'fixed-key-1']);
    expect(reuse.code).toBe(6);
    expect(reuse.stderr).toContain('code idempotency_key_reuse');
    expect(reuse.stderr).toMatch(/hint: Idempotency-Keys are single use/);
    expect(reuse.stderr).not.toContain('different body');
  });

  it('renders a refused workflow with its node-errors table (exit 6)', async () => {
    const file = writeTemp(dir(), { ...imageWorkflow(), '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 999, seed: 1, denoise: 1, sampler_name: 'nope' } } });
    const res = await wes(['jobs', 'submit', file]);
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(/NODE\tCLASS\tTYPE\tMESSAGE\tDETAILS/);
    expect(res.stderr).toContain('value_bigger_than_max');
    expect(res.stderr).toContain('value_not_in_list');
    const json = await wes(['jobs', 'submit', file, '--json']);
    expect(JSON.parse(json.stderr).error.details.node_errors['2']).toBeDefined();
  });

  it('--wait follows the job and --download saves its outputs (stdout: id, then paths)', async () => {
    const file = writeTemp(dir(), imageWorkflow({ prefix: 'waited' }));
    const out = `${dir()}/waited`;
    const res = await wes(['jobs', 'submit', file, '--download', out]);
    expect(res.code, res.stderr).toBe(0);
    const [id, path, ...rest] = res.stdout.trim().split('\n');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(path).toBe(`${out}/waited_00001_.png`);
    expect(rest).toEqual([]);
    const job = (await getJson(ctx.server, `/api/v2/jobs/${id}`)).body;
    expect(job.status).toBe('succeeded');

    const json = await wes(['jobs', 'submit', file, '--wait', '--json']);
    const lines = ndjson(json.stdout);
    expect(lines[0]!.status).toBe('queued');
    expect(lines.at(-1)!.status).toBe('succeeded');
  });
});
