// What a newcomer stumbled on (issue 29): the short ids progress lines show are taken where an id
// is (a unique start of an id in the history; an ambiguous one lists the candidates), `jobs get
// last` points to @last; Ctrl-C during `submit --wait --download` prints a resume command that
// redoes what was asked; `jobs get ID | cat` is the record only; every command that learns a
// status records it in the history.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageWorkflow, waitForJob } from '../helpers/dev-server.js';
import { runWes } from '../helpers/cli.js';
import { failWorkflow, interruptWhen, writeTemp } from './jobs-env.js';
import { useKeptConfig } from './history-env.js';
import { jobJson, useFakeJobApi } from './fake-job-api.js';

const LONG = { steps: 150 };

describe('job references, statuses in the history, resume and piped views', () => {
  const { ctx, wes, dir, cfg, run } = useKeptConfig();
  const api = useFakeJobApi();
  const statusOf = async (id: string) => (JSON.parse((await run(['jobs', 'list', '--json'])).stdout) as Array<{ id: string; status: string }>).find((e) => e.id === id)?.status;

  it('the start of an id from the history names the job; ambiguous ones list the candidates; "last" hints @last', async () => {
    const id = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ steps: 2 })), '--wait'])).stdout.trim();
    const short = await run(['jobs', 'get', id.slice(0, 8), '--json']);
    expect(short.code, short.stderr).toBe(0);
    expect(JSON.parse(short.stdout).id).toBe(id);

    const last = await run(['jobs', 'get', 'last']);
    expect(last.code).toBe(5);
    expect(last.stderr).toContain('last is not a job id: for the latest job you submitted write @last');
    // A number that no id of the history starts with (a random id may start with 2: then 2 names it).
    const n = id.startsWith('2') ? '3' : '2';
    const second = await run(['jobs', 'get', n]);
    expect(second.stderr).toContain(`write @${n}`);
    const unknown = await run(['jobs', 'get', 'c4d943fe']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain("no job of this machine's history starts with c4d943fe");

    api().onSubmit = (_body, n) => ({ state: jobJson(`abc-${n}`, 'succeeded') });
    const env = { WES_BASE_URL: api().url };
    for (let i = 0; i < 3; i++) await runWes(['jobs', 'submit', writeTemp(dir(), imageWorkflow())], { env, configDir: cfg.dir });
    const ambiguous = await runWes(['jobs', 'get', 'abc-'], { env, configDir: cfg.dir });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/abc- is the start of 3 jobs in the history: abc-\d, abc-\d, abc-\d/);
    expect(ambiguous.stderr).toContain('give more of the id');
    const whole = await runWes(['jobs', 'get', 'abc-2', '--json'], { env, configDir: cfg.dir });
    expect(JSON.parse(whole.stdout).id).toBe('abc-2');
  });

  it('Ctrl-C during submit --wait --download: the resume command redoes what was asked, and does it', async () => {
    const out = join(dir(), 'resumed');
    const flow = writeTemp(dir(), imageWorkflow({ ...LONG, prefix: 'resumed' }));
    const res = await wes(['--base-url', ctx.server.url, 'jobs', 'submit', flow, '--wait', '--download', out, '--skip-existing', '--interval', '0.05'], { configDir: cfg.dir, onSpawn: interruptWhen(/[0-9a-f]{8} running/) });
    expect(res.code).toBe(130);
    const id = res.stdout.trim();
    const resume = /resume with: (wes .*?) {4}\(cancel it with: wes jobs cancel (\S+)\)/.exec(res.stderr);
    expect(resume?.[1]).toBe(`wes --base-url ${ctx.server.url} jobs watch ${id} --interval 0.05 --download ${out} --skip-existing`);
    expect(resume?.[2]).toBe(id);
    expect(res.stderr).toContain(`interrupted: job ${id} keeps running on the service\nresume with: `);
    expect(await statusOf(id)).toBe('running');

    const again = await wes(resume![1]!.split(' ').slice(1), { configDir: cfg.dir });
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(out)).toContain('resumed_00001_.png');
    expect(await statusOf(id)).toBe('succeeded');
  });

  it('jobs get of a failed job, piped: the record on stdout (key<TAB>value lines), the hints on stderr', async () => {
    const id = (await run(['jobs', 'submit', writeTemp(dir(), failWorkflow('it broke'))])).stdout.trim();
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['failed']);
    const res = await run(['jobs', 'get', id]);
    expect(res.code).toBe(0);
    for (const line of res.stdout.trimEnd().split('\n')) expect(line).toMatch(/^[a-z_ ]+\t/);
    expect(res.stdout).toMatch(/^error\texecution_error: it broke \(node 2, Fail\)$/m);
    expect(res.stdout).not.toMatch(/traceback hidden|outputs \(/);
    expect(res.stderr).toBe(`(traceback hidden; show it with: wes jobs get ${id} --verbose)\n`);
    const verbose = await run(['jobs', 'get', id, '--verbose']);
    expect(verbose.stdout).toMatch(/^traceback\tTraceback \(most recent call last\):$/m);

    const terminal = await wes(['jobs', 'get', id], { configDir: cfg.dir, terminal: { stdoutTTY: true, stderrTTY: false } });
    expect(terminal.stdout, terminal.stderr).toContain('error: execution_error: it broke');
    expect(terminal.stdout).not.toContain('traceback hidden');
    expect(terminal.stderr).toContain('traceback hidden');
  });

  it('every command that learns a status records it: cancel, download, get, batch follows', async () => {
    const canceled = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow(LONG))])).stdout.trim();
    await waitForJob(ctx.server, `/api/v2/jobs/${canceled}`, ['running']);
    expect((await run(['jobs', 'cancel', canceled])).code).toBe(0);
    expect(await statusOf(canceled)).toMatch(/^cancel/);

    const downloaded = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ steps: 2, prefix: 'dl' }))])).stdout.trim();
    expect(await statusOf(downloaded)).toBe('queued');
    await waitForJob(ctx.server, `/api/v2/jobs/${downloaded}`, ['succeeded']);
    const target = join(dir(), 'dl');
    expect((await run(['jobs', 'download', downloaded, target])).code).toBe(0);
    expect(existsSync(join(target, 'dl_00001_.png'))).toBe(true);
    expect(await statusOf(downloaded)).toBe('succeeded');

    const gotten = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ steps: 2 }))])).stdout.trim();
    await waitForJob(ctx.server, `/api/v2/jobs/${gotten}`, ['succeeded']);
    await run(['jobs', 'get', gotten]);
    expect(await statusOf(gotten)).toBe('succeeded');

    const batch = writeTemp(dir(), [imageWorkflow({ steps: 2, prefix: 'b1' }), failWorkflow()].map((w) => JSON.stringify(w)).join('\n') + '\n', 'jsonl');
    const ran = await run(['jobs', 'submit', '--batch', batch, '--interval', '0.05']);
    expect(ran.code).toBe(3);
    const lines = JSON.parse((await run(['jobs', 'list', '--json'])).stdout) as Array<{ source: string; status: string }>;
    const statuses = lines.filter((e) => e.source.startsWith('batch ')).map((e) => `${e.source.split(':')[1]} ${e.status}`).sort();
    expect(statuses).toEqual(['1 succeeded', '2 failed']);
  });
});
