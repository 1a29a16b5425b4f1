// `wes legacy` with default settings (no --engine, a fresh configuration) against servers that
// answer as ComfyUI 0.3.18 and 0.3.64 did on the wire (recorded-engine.ts): the engine is found
// through its empty 404s, prompts carry the socket's client id (and wes's own prompt id, which
// 0.3.64 keeps), --ws ends on the engine's own messages with node and step shown, previews are
// saved by prompt and node (type 4 on 0.3.64, type 1 on 0.3.18), a running prompt is neither
// deleted nor interrupted by mistake, and no deprecation note is said to a bare engine.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { fixture } from '../helpers/comfyui-fixtures.js';
import { until } from '../helpers/until.js';
import { useTempDir } from './jobs-env.js';
import { startRecordedEngine, type RecordedEngine, type RecordedVersion } from './recorded-engine.js';

const SAMPLER = fixture('ws-sampler-0.3.64.json').post_prompt.request.prompt as Record<string, unknown>;
const NOTE = /^note: /m;

for (const version of ['0.3.18', '0.3.64'] as RecordedVersion[]) {
  // The versions side by side, each against a server of its own; a version's tests one after another (they share its queue).
  describe.concurrent(`wes legacy against ComfyUI ${version} as recorded, with default settings`, () => {
    const newer = version === '0.3.64';
    const dir = useTempDir();
    let engine: RecordedEngine;
    let config: ReturnType<typeof tempConfigDir>;
    beforeAll(async () => {
      engine = await startRecordedEngine(version);
      config = tempConfigDir();
    });
    afterAll(async () => {
      config.cleanup();
      await engine.close();
    });
    const wes = (args: string[]) => runWes(args, { configDir: config.dir, env: { WES_BASE_URL: engine.url } });
    const flow = () => {
      const path = join(dir(), `flow-${Math.random()}.json`);
      writeFileSync(path, JSON.stringify(SAMPLER));
      return path;
    };
    const posted = () => engine.requests.filter((r) => r.method === 'POST' && r.path === '/api/prompt').map((r) => JSON.parse(r.body));
    const raw = async (body: Record<string, unknown>) => ((await (await fetch(`${engine.url}/api/prompt`, { method: 'POST', body: JSON.stringify(body) })).json()) as { prompt_id: string }).prompt_id;
    const queueNow = async () => (await (await fetch(`${engine.url}/api/queue`)).json()) as { queue_running: unknown[][]; queue_pending: unknown[][] };
    const queued = async () => {
      const q = await queueNow();
      return [...q.queue_running, ...q.queue_pending].map((e: unknown[]) => e[1]);
    };

    it.sequential('prompt --wait: the engine found by its empty 404s, the prompt sent with a client id (and wes\'s own prompt id), one end line, no note', async () => {
      // Polled every 50 ms: the recorded prompt ends in milliseconds, and the default 1 s would be the test's only wait.
      const res = await wes(['legacy', 'prompt', flow(), '--wait', '--interval', '0.05']);
      expect(res.code, res.stderr).toBe(0);
      const id = res.stdout.trim();
      const body = posted().pop();
      expect(body.client_id).toEqual(expect.any(String));
      expect(body.prompt_id === id).toBe(newer); // 0.3.18 makes its own id
      expect(res.stderr.match(new RegExp(`prompt ${id}: success`, 'g'))).toHaveLength(1);
      expect(res.stderr).not.toMatch(NOTE);
      expect(engine.requests.some((r) => r.path.startsWith('/api/job/'))).toBe(true); // the probe that found no status route
    });

    it.sequential('prompt --ws --previews --download: ends on the engine\'s messages, shows node and step, saves every preview and the output', async () => {
      const [previews, out] = [join(dir(), `pv-${version}`), join(dir(), `out-${version}`)];
      // A 30 s safety net: only the socket's own ending can finish this inside the test's time.
      const res = await wes(['legacy', 'prompt', flow(), '--ws', '--previews', previews, '--download', out, '--interval', '30']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/node 5 \(KSampler\) step 8\/8/);
      expect(readdirSync(previews).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `node-5-${String(i + 1).padStart(4, '0')}.jpg`));
      expect(readdirSync(out)).toEqual([expect.stringMatching(/^rnd8_\d+_\.png$/)]);
      expect(res.stderr).toContain(`saved 8 preview(s) in ${previews}`);
      const id = res.stdout.trim();
      expect(engine.clientIds.get(id)).toBe(posted().pop().client_id);
      expect(res.stderr.match(new RegExp(`prompt ${id}: success`, 'g'))).toHaveLength(1);
    });

    it.sequential('previews after an earlier prompt still running are this prompt\'s, every one', async () => {
      const first = await wes(['legacy', 'prompt', flow(), '--quiet']);
      expect(first.code, first.stderr).toBe(0);
      const previews = join(dir(), `pv-after-${version}`);
      const res = await wes(['legacy', 'prompt', flow(), '--ws', '--previews', previews]);
      expect(res.code, res.stderr).toBe(0);
      expect(readdirSync(previews)).toHaveLength(8);
    });

    it.sequential('status and watch of a prompt another client submitted (its messages go to that client): read by REST', async () => {
      const id = await raw({ prompt: SAMPLER, client_id: 'someone-else' });
      // Read by REST every 50 ms (1 s by default against an engine): the socket carries nothing of it either way.
      const watched = await wes(['legacy', 'watch', id, '--interval', '0.05']);
      expect([watched.code, watched.stdout.trim()], watched.stderr).toEqual([0, 'success']);
      const status = await wes(['legacy', 'status', id]);
      expect([status.code, status.stdout.trim()]).toEqual([0, 'success']);
    });

    it.sequential('list: the engine\'s queue and history in the published job list\'s words', async () => {
      const res = await wes(['legacy', 'list', '--json']);
      expect(res.code, res.stderr).toBe(0);
      const list = JSON.parse(res.stdout);
      expect(list.jobs.length).toBeGreaterThan(3);
      expect(new Set(list.jobs.map((j: { status: string }) => j.status))).toEqual(new Set(['completed']));
      expect(list.jobs[0]).toMatchObject({ outputs_count: 1, execution_start_time: expect.any(Number) });
    });

    it.sequential('queue delete leaves a running prompt running (exit 6, names interrupt); interrupt ID sends nothing unless it runs, then stops it alone', async () => {
      engine.gapMs = 40;
      try {
        const running = await raw({ prompt: SAMPLER, client_id: 'owner' });
        const pending = await raw({ prompt: SAMPLER, client_id: 'owner' });
        await until(async () => (await queueNow()).queue_running.length === 1);
        const deleted = await wes(['legacy', 'queue', 'delete', running, pending]);
        expect(deleted.code, deleted.stderr).toBe(6);
        expect(deleted.stderr).toContain(`deleted 1 pending prompt(s): ${pending}`);
        expect(deleted.stderr).toContain(`prompt ${running} is running; \`queue delete\` takes pending prompts only, so it runs on`);
        expect(deleted.stderr).toContain(`hint: stop it with \`wes legacy interrupt ${running}\``);
        expect(await queued()).toEqual([running]);

        const interrupts = () => engine.requests.filter((r) => r.path === '/api/interrupt').length;
        const before = interrupts();
        const other = await wes(['legacy', 'interrupt', pending]);
        expect(other.code).toBe(6);
        expect(other.stderr).toContain(`prompt ${pending} is not running; nothing was interrupted`);
        expect(interrupts()).toBe(before);

        const stopped = await wes(['legacy', 'interrupt', running]);
        expect(stopped.code, stopped.stderr).toBe(0);
        expect(JSON.parse(engine.requests.filter((r) => r.path === '/api/interrupt').pop()!.body)).toEqual({ prompt_id: running });
        const status = await wes(['legacy', 'status', running, '--wait', '--interval', '0.05']);
        expect([status.code, status.stdout.trim()]).toEqual([10, 'cancelled']);
      } finally {
        engine.gapMs = 2;
      }
    });

    if (newer) {
      it.sequential('a prompt posted without client_id (its progress and type-1 previews go to every client) does not take this prompt\'s previews', async () => {
        engine.gapMs = 10;
        try {
          await raw({ prompt: SAMPLER });
          const previews = join(dir(), 'pv-broadcast');
          const res = await wes(['legacy', 'prompt', flow(), '--ws', '--previews', previews, '--verbose']);
          expect(res.code, res.stderr).toBe(0);
          expect(readdirSync(previews)).toHaveLength(8);
        } finally {
          engine.gapMs = 2;
        }
      });
    }
  });
}
