// Every `wes legacy` command the README shows, with default settings (no --engine, a fresh
// configuration, no key), against the dev-server's imitation of ComfyUI 0.3.18 and of 0.3.64
// (`--surface self-hosted --engine-only --engine-version`): each works, with one end line, and no
// deprecation note (a bare engine has no job API v2).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { ENGINE_VERSIONS } from '../../src/dev-server/contract.js';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { runWes, tempConfigDir, type RunOptions } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import { longWorkflow, sampleWorkflow, submit, v1 } from '../dev-server/legacy-kit.js';
import { until } from '../helpers/until.js';
import { useTempDir } from './jobs-env.js';

const NOTE = /^note: /m;

for (const version of ENGINE_VERSIONS) {
  // The versions side by side, each against a server of its own; a version's tests one after another (they share its queue).
  describe.concurrent(`the README's wes legacy commands against the imitation of ComfyUI ${version}, default settings`, () => {
    const dir = useTempDir();
    let server: DevServerHandle;
    let config: ReturnType<typeof tempConfigDir>;
    beforeAll(async () => {
      server = await startFast({ deployment: 'self-hosted', engineOnly: true, engineVersion: version, stepMs: 3 });
      config = tempConfigDir();
    });
    afterAll(async () => {
      config.cleanup();
      await server.close();
    });
    const wes = async (args: string[], opts: RunOptions = {}) => {
      const res = await runWes(args, { configDir: config.dir, ...opts, env: { WES_BASE_URL: server.url, ...opts.env } });
      expect(res.stderr, args.join(' ')).not.toMatch(NOTE);
      return res;
    };
    const file = (name: string, content: unknown) => {
      const path = join(dir(), `${version}-${name}`);
      writeFileSync(path, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
      return path;
    };
    const running = async (id: string) => (await v1(server, 'GET', '/api/queue')).body.queue_running.some((e: unknown[]) => e[1] === id);

    it.sequential('object-info, object-info CLASS, upload and upload --mask', async () => {
      expect((await wes(['legacy', 'object-info'])).code).toBe(0);
      const one = await wes(['legacy', 'object-info', 'EmptyImage']);
      expect(one.stdout).toMatch(/^width\tINT\t/m);
      const image = file('cat.png', encodePng({ width: 2, height: 2, data: new Uint8Array(12) }));
      const up = await wes(['legacy', 'upload', image]);
      expect([up.code, up.stdout.trim()], up.stderr).toEqual([0, `${version}-cat.png`]);
      const mask = await wes(['legacy', 'upload', file('mask.png', encodePng({ width: 2, height: 2, data: new Uint8Array(12) })), '--mask', '--original', `${version}-cat.png`]);
      expect(mask.code, mask.stderr).toBe(0);
    });

    it.sequential('prompt, prompt --wait, status, status --wait, list', async () => {
      const flow = file('flow.json', sampleWorkflow(2, `readme-${version.replace(/\./g, '')}`));
      const plain = await wes(['legacy', 'prompt', flow]);
      expect(plain.code, plain.stderr).toBe(0);
      const waited = await wes(['legacy', 'prompt', flow, '--wait']);
      expect(waited.code, waited.stderr).toBe(0);
      const id = waited.stdout.trim();
      expect(waited.stderr.match(new RegExp(`prompt ${id}: success`, 'g'))).toHaveLength(1);
      expect([(await wes(['legacy', 'status', id])).stdout.trim(), (await wes(['legacy', 'status', id, '--wait'])).stdout.trim()]).toEqual(['success', 'success']);
      const list = await wes(['legacy', 'list']);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^${id}\\tcompleted\\t`, 'm'));
    });

    it.sequential('prompt --ws --previews --download, then view -o (and the same again: kept)', async () => {
      const [previews, out] = [join(dir(), `${version}-pv`), join(dir(), `${version}-out`)];
      const res = await wes(['legacy', 'prompt', file('ws.json', sampleWorkflow(3, 'readme-ws')), '--ws', '--previews', previews, '--download', out]);
      expect(res.code, res.stderr).toBe(0);
      expect(readdirSync(previews)).toEqual(['node-2-0001.png', 'node-2-0002.png', 'node-2-0003.png']);
      const [name] = readdirSync(out);
      const target = join(dir(), `${version}-viewed.png`);
      expect((await wes(['legacy', 'view', name!, '-o', target])).code).toBe(0);
      expect(readFileSync(target)).toEqual(readFileSync(join(out, name!)));
      const again = await wes(['legacy', 'view', name!, '-o', target]);
      expect([again.code, again.stderr]).toEqual([0, expect.stringContaining('kept the existing')]);
    });

    it.sequential('watch, and watch --preview of a prompt posted without a client id (its previews go to every client)', async () => {
      const id = await submit(server, sampleWorkflow(20, 'readme-watch'));
      const res = await wes(['legacy', 'watch', id, '--preview'], { terminal: { stdoutTTY: true, stderrTTY: true }, env: { WES_PICTURES: 'sixel' } });
      expect([res.code, res.stdout]).toEqual([0, 'success\n']);
      expect(res.stderr).toMatch(/\x1bP0;1;q"1;1;\d+;\d+#/); // a preview drawn under the progress line
    });

    it.sequential('queue, queue delete (a pending one; a running one is named, then --running), interrupt ID', async () => {
      const first = await submit(server, longWorkflow('readme-run', 3));
      const second = await submit(server, longWorkflow('readme-pending', 3));
      const third = await submit(server, longWorkflow('readme-third', 1));
      await until(() => running(first));
      const queue = await wes(['legacy', 'queue']);
      expect(queue.stdout).toMatch(new RegExp(`^pending\\t\\d+\\t${second}\\t`, 'm'));
      const deleted = await wes(['legacy', 'queue', 'delete', second]);
      expect(deleted.code, deleted.stderr).toBe(0);
      const named = await wes(['legacy', 'queue', 'delete', first]);
      expect(named.code).toBe(6);
      expect(named.stderr).toContain(`hint: stop it with \`wes legacy interrupt ${first}\``);
      const stopped = await wes(['legacy', 'queue', 'delete', first, '--running']);
      expect([stopped.code, stopped.stderr], stopped.stderr).toEqual([0, expect.stringContaining(`interrupted running prompt(s): ${first}`)]);
      await until(() => running(third));
      const interrupted = await wes(['legacy', 'interrupt', third]);
      expect(interrupted.code, interrupted.stderr).toBe(0);
      const status = await wes(['legacy', 'status', third, '--wait', '--interval', '0.05']);
      expect([status.code, status.stdout.trim()]).toEqual([10, 'cancelled']);
      expect(existsSync(config.dir)).toBe(true);
    });
  });
}
