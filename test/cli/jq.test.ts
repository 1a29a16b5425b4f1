// --jq EXPR through the built binary: real jq (jq-wasm), strings raw, one result a line, an
// expression that does not compile is exit 2 before any request, NDJSON streams filtered per line.
import { describe, expect, it } from 'vitest';
import { imageWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { runWes } from '../helpers/cli.js';
import { seenMatching, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('--jq', () => {
  const ctx = useDevServer();
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('prints strings raw and every result on its own line, with real jq features', async () => {
    const id = (await submitJob(ctx.server, imageWorkflow({ prefix: 'jq' }))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const res = await wes(['jobs', 'get', id, '--jq', '.id, .status, (.outputs | length), {n: .outputs[0].name}']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`${id}\nsucceeded\n1\n{"n":"jq_00001_.png"}\n`);
    const fancy = await wes(['jobs', 'get', id, '--jq', '[.outputs[] | .name | ascii_upcase | test("PNG$")] | @csv']);
    expect(fancy.stdout).toBe('true\n');
    // jq 1.7+ builtins: the real thing, not a subset.
    const modern = await wes(['jobs', 'get', id, '--jq', '(pick(.status) | tojson), ("x-y" | ltrimstr("x-")), have_literal_numbers']);
    expect(modern.stdout).toBe('{"status":"succeeded"}\ny\ntrue\n');
  });

  it('applies to each NDJSON line of a watch', async () => {
    const id = (await submitJob(ctx.server, imageWorkflow({ steps: 5 }))).body.id as string;
    const res = await wes(['jobs', 'watch', id, '--interval', '0.05', '--jq', '.status']);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('succeeded');
    for (const l of lines) expect(['queued', 'running', 'succeeded']).toContain(l);
  });

  it('an expression that does not compile is exit 2 before any request', async () => {
    const before = seenMatching(ctx.server, /.*/);
    const res = await wes(['jobs', 'get', 'anything', '--jq', '.[']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stderr).error.message).toMatch(/^--jq: the expression does not compile: syntax error/);
    expect(seenMatching(ctx.server, /.*/)).toBe(before);
    const offline = await runWes(['version', '--jq', 'error("not run") |']);
    expect(offline.code).toBe(2);
  });

  it('a runtime error of the expression is exit 1 with jq\'s message; works on commands with no request', async () => {
    const res = await runWes(['version', '--jq', '.version | error("boom: \\(.)")']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('boom: ');
    const ok = await runWes(['version', '--jq', '.node']);
    expect(ok.stdout).toBe(`${process.versions.node}\n`);
    const file = writeTemp(dir(), imageWorkflow());
    const submitted = await wes(['jobs', 'submit', file, '--jq', '.status']);
    expect(submitted.stdout).toBe('queued\n');
  });
});
