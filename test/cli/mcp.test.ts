// `wes mcp` as an agent uses it: the MCP SDK's own client spawns the built binary over stdio
// against an in-process dev-server; tools listed, a job submitted and waited for with progress
// notifications, its outputs downloaded byte for byte, failures as results with wes's code and
// hint, and no credential in any result.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageWorkflow, serverUrl, useDevServer } from '../helpers/dev-server.js';
import { useTempDir, writeTemp } from './jobs-env.js';
import { structured, text, useMcp } from './mcp-env.js';
import { until } from '../helpers/until.js';
import { runWes } from '../helpers/cli.js';

describe('wes mcp against a cloud dev-server', () => {
  const ctx = useDevServer({ stepMs: 5 });
  const mcp = useMcp(() => ({ WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey! }));
  const dir = useTempDir();

  it('lists every tool with an input schema, a description and annotations; cancel is destructive', async () => {
    const { tools } = await mcp().client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['submit_job', 'get_job', 'wait_job', 'cancel_job', 'download_outputs', 'upload_asset', 'list_jobs', 'find_job', 'list_models', 'get_model', 'get_model_schema', 'run_model', 'get_model_result', 'validate_workflow', 'convert_workflow', 'engine_prompt', 'engine_queue']) expect(names).toContain(name);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description!.length, t.name).toBeGreaterThan(60);
      expect(t.annotations?.title, t.name).toBeTruthy();
    }
    expect(tools.find((t) => t.name === 'cancel_job')!.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === 'get_job')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('submit_job with wait: progress notifications while it runs, then the succeeded job; download_outputs saves the same bytes the service serves', async () => {
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await mcp().call('submit_job', { workflow: imageWorkflow({ prefix: 'mcp-wait', steps: 12 }), inputs: { '2.seed': 99 }, labels: { run: 'mcp' }, wait: true }, { onprogress: (p) => progress.push(p) });
    expect(result.isError, text(result)).toBeFalsy();
    const { job, finished, exit_code, idempotency_key } = structured(result);
    expect(finished).toBe(true);
    expect(exit_code).toBe(0);
    expect(job.status).toBe('succeeded');
    expect(job.metadata).toBeUndefined(); // Comfy Cloud (the default surface) keeps no labels: wes sends none there
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    expect(progress.some((p) => p.message?.includes('running'))).toBe(true);
    const engineJob = ctx.server.state.engine.list().find((j) => j.id === job.id)!;
    expect(JSON.stringify(engineJob.workflow)).toContain('"seed":99');

    const out = join(dir(), 'out');
    const saved = await mcp().call('download_outputs', { job_id: job.id, dir: out });
    expect(saved.isError, text(saved)).toBeFalsy();
    const files = structured(saved).files as Array<{ name: string; path: string; size_bytes: number; hash: string; verified: boolean }>;
    expect(files).toHaveLength(job.outputs.length);
    for (const file of files) {
      const output = job.outputs.find((o: { name: string }) => o.name === file.name);
      const served = Buffer.from(await (await fetch(serverUrl(ctx.server, output.url))).arrayBuffer());
      const onDisk = readFileSync(file.path);
      expect(onDisk.equals(served)).toBe(true);
      expect(file.size_bytes).toBe(served.length);
      expect(file.hash).toBe(output.hash);
      expect(file.verified).toBe(true);
    }
    const image = saved.content.find((c) => c.type === 'image') as { data: string; mimeType: string } | undefined;
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image!.data, 'base64').equals(readFileSync(files[0]!.path))).toBe(true);
  });

  it('a workflow file path, get_job, wait_job (already ended) and list_jobs agree on the job', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'mcp-file', steps: 1 }));
    const submitted = await mcp().call('submit_job', { workflow: flow });
    expect(submitted.isError, text(submitted)).toBeFalsy();
    const id = structured(submitted).job.id as string;
    const waited = await mcp().call('wait_job', { job_id: id });
    expect(structured(waited)).toMatchObject({ finished: true, job: { id, status: 'succeeded' } });
    expect(structured(await mcp().call('get_job', { job_id: '@last' })).job.id).toBe(id);
    const listed = await mcp().call('list_jobs', {});
    expect(structured(listed).source).toBe('history'); // a cloud deployment keeps no job list
    expect(structured(listed).note).toContain('keeps no job list');
    expect(structured(listed).jobs[0].id).toBe(id);
  });

  it('a workflow the server refuses is a result with isError, the code, exit code 6 and the node errors; the server keeps serving', async () => {
    const refused = await mcp().call('submit_job', { workflow: { '1': { class_type: 'NoSuchNode', inputs: {} } } });
    expect(refused.isError).toBe(true);
    const { error } = structured(refused);
    expect(error.exit_code).toBe(6);
    expect(error.code).toBe('invalid_workflow');
    expect(error.status).toBe(422);
    expect(text(refused)).toContain('NoSuchNode');
    expect(structured(await mcp().call('list_models', { limit: 2 })).models).toHaveLength(2);
  });

  it('bad arguments and unknown tools are usage errors (exit code 2) with a hint, not protocol errors', async () => {
    const bad = await mcp().call('get_job', { id: 'x' });
    expect(bad.isError).toBe(true);
    expect(structured(bad).error).toMatchObject({ code: 'usage', exit_code: 2 });
    expect(structured(bad).error.message).toContain('missing field "job_id"');
    const unknown = await mcp().call('no_such_tool', {});
    expect(structured(unknown).error.hint).toContain('submit_job');
    const stdin = await mcp().call('submit_job', { workflow: '-' });
    expect(structured(stdin).error.message).toContain('standard input');
    const missing = await mcp().call('get_job', { job_id: '00000000-0000-4000-8000-000000000000' });
    expect(structured(missing).error).toMatchObject({ exit_code: 5, status: 404 });
  });

  it('wait_job past its timeout_seconds answers finished: false (no error); cancel_job then ends the job, and the wait says canceled (exit code 10)', async () => {
    const submitted = await mcp().call('submit_job', { workflow: imageWorkflow({ prefix: 'mcp-cancel', steps: 100 }) });
    expect(submitted.isError, text(submitted)).toBeFalsy();
    const id = structured(submitted).job.id as string;
    const early = await mcp().call('wait_job', { job_id: id, timeout_seconds: 0.2 });
    expect(early.isError, text(early)).toBeFalsy();
    expect(structured(early)).toMatchObject({ finished: false, job: { id } });
    expect(text(early)).toContain('wait again with wait_job');
    const canceled = await mcp().call('cancel_job', { job_id: id });
    expect(structured(canceled)).toMatchObject({ canceled: true, job: { id } });
    const ended = await mcp().call('wait_job', { job_id: id });
    expect(structured(ended)).toMatchObject({ finished: true, exit_code: 10, job: { status: 'canceled' } });
    const again = await mcp().call('cancel_job', { job_id: id });
    expect(structured(again)).toMatchObject({ canceled: false });
  });

  it('run_model answers the model\'s JSON, now or queued (get_model_result collects it); get_model shows it; get_model_schema lists its fields', async () => {
    const ran = await mcp().call('run_model', { model: 'dev/echo', input: { prompt: 'a lighthouse' } });
    expect(ran.isError, text(ran)).toBeFalsy();
    expect(JSON.stringify(structured(ran).output)).toContain('a lighthouse');
    const queued = await mcp().call('run_model', { model: 'dev/echo', input: { prompt: 'queued lighthouse' }, queue: true });
    expect(queued.isError, text(queued)).toBeFalsy();
    const requestId = structured(queued).request.request_id as string;
    let collected = await mcp().call('get_model_result', { model: 'dev/echo', request_id: requestId });
    await until(async () => structured(collected).ready === true || structured((collected = await mcp().call('get_model_result', { model: 'dev/echo', request_id: requestId }))).ready === true, 'the queued run to be ready');
    expect(structured(collected)).toMatchObject({ ready: true, request_id: requestId });
    expect(JSON.stringify(structured(collected).output)).toContain('queued lighthouse');
    expect(structured(await mcp().call('get_model', { model: 'dev/echo' })).model).toMatchObject({ id: 'dev/echo', provider: 'dev' });
    const schema = await mcp().call('get_model_schema', { model: 'dev/upscale' });
    expect(schema.isError, text(schema)).toBeFalsy();
    expect(structured(schema).fields.length).toBeGreaterThan(0);
  });

  it('validate_workflow and convert_workflow work on the graph itself', async () => {
    const valid = await mcp().call('validate_workflow', { workflow: imageWorkflow() });
    expect(valid.isError, text(valid)).toBeFalsy();
    expect(structured(valid)).toMatchObject({ valid: true, format: 'api' });
    const invalid = await mcp().call('validate_workflow', { workflow: { ...imageWorkflow(), '2': { class_type: 'Sample', inputs: { image: ['1', 0] } } } });
    expect(structured(invalid).valid).toBe(false);
    expect(Object.keys(structured(invalid).node_errors)).toContain('2');
    const converted = await mcp().call('convert_workflow', { workflow: imageWorkflow() });
    expect(structured(converted)).toMatchObject({ format: 'api', workflow: imageWorkflow() });
  });

  it('no result ever carried the API key; stdout carried only the protocol; logs went to stderr', () => {
    expect(mcp().said.length).toBeGreaterThan(5);
    for (const said of mcp().said) expect(said).not.toContain(ctx.server.apiKey!);
    expect(mcp().protocolErrors).toEqual([]);
    expect(mcp().stderr()).toContain('wes mcp: serving');
  });
  it('submit_job runs a workflow saved on the server by name, and refuses both or neither of workflow and saved', async () => {
    const env = { WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey! };
    const file = writeTemp(dir(), imageWorkflow({ prefix: 'mcp-saved', steps: 1 }));
    const pushed = await runWes(['workflows', 'push', file, '--name', 'mcp saved'], { env });
    expect(pushed.code, pushed.stderr).toBe(0);
    const result = await mcp().call('submit_job', { saved: 'mcp saved', inputs: { '2.seed': 7 }, wait: true });
    expect(result.isError, text(result)).toBeFalsy();
    const { job } = structured(result);
    expect(job.status).toBe('succeeded');
    const ran = ctx.server.state.engine.list().find((j) => j.id === job.id)!;
    expect(JSON.stringify(ran.workflow)).toContain('mcp-saved');
    expect(JSON.stringify(ran.workflow)).toContain('"seed":7');
    for (const args of [{}, { saved: 'mcp saved', workflow: imageWorkflow({ prefix: 'x', steps: 1 }) }]) {
      const refused = await mcp().call('submit_job', args);
      expect(refused.isError).toBe(true);
      expect(structured(refused).error).toMatchObject({ exit_code: 2 });
      expect(text(refused)).toContain('either "workflow" or "saved"');
    }
  });
});
