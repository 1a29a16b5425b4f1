// `npm run demo`: starts the embedded dev-server on a free port and drives the built `wes`
// through a real session on all three surfaces, then stops the server. Exits non-zero when any
// step fails, so it doubles as a smoke test.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startDevServer } from '../dist/dev-server.js';
import { commandLine } from './demo-line.mjs';

const bin = resolve(import.meta.dirname, '../bin/wes.js');
const work = mkdtempSync(join(tmpdir(), 'wes-demo-'));
const API_KEY = 'wes-demo-key';
const color = process.stderr.isTTY && !process.env.NO_COLOR;
const bold = (t) => (color ? `\x1b[1m${t}\x1b[0m` : t);
const green = (t) => (color ? `\x1b[32m${t}\x1b[0m` : t);

const workflow = {
  '1': { class_type: 'EmptyImage', inputs: { width: 64, height: 64, batch_size: 1, color: 3368652 } },
  '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 8, seed: 42, denoise: 0.8, sampler_name: 'euler' } },
  '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'demo' } },
  '4': { class_type: 'SaveText', inputs: { text: 'hello from the demo' } },
};
writeFileSync(join(work, 'flow.json'), JSON.stringify(workflow, null, 2));

const server = await startDevServer({ port: 0, apiKey: API_KEY, stepMs: 60 });
const env = { ...process.env, WES_BASE_URL: server.url, WES_API_KEY: API_KEY, WES_CONFIG_DIR: join(work, 'config') };

function wes(args, { capture = false } = {}) {
  process.stderr.write(`\n${bold(commandLine(args))}\n`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, cwd: work, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
      process.stdout.write(c);
    });
    child.on('close', (code) => (code === 0 ? resolvePromise(out.trim()) : reject(new Error(`wes ${args.join(' ')} exited ${code}`))));
  });
}

let failed = false;
try {
  process.stderr.write(`dev-server listening on ${server.url} (work folder ${work})\n`);
  const jobId = await wes(['jobs', 'submit', 'flow.json'], { capture: true });
  await wes(['jobs', 'watch', jobId]);
  await wes(['jobs', 'download', jobId, 'out']);
  process.stderr.write(`saved: ${readdirSync(join(work, 'out')).join(', ')}\n`);
  await wes(['models', 'list', '--limit', '5']);
  await wes(['models', 'run', 'dev/echo', '-d', '{"prompt":"a lighthouse at dusk","seed":7}']);
  const promptId = await wes(['legacy', 'prompt', 'flow.json', '--quiet'], { capture: true });
  await wes(['legacy', 'watch', promptId]);
  process.stderr.write(`\n${green('demo finished: submit, watch, download, model run and legacy watch all succeeded')}\n`);
} catch (err) {
  failed = true;
  process.stderr.write(`\ndemo failed: ${err.message}\n`);
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
