// The official MCP Inspector's command-line mode against `wes mcp`: it lists the tools and calls
// two of them (a workflow submitted and waited for, a model run) against the embedded dev-server.
// Not a dependency and not run by `npm test`: `npx` fetches the Inspector from the npm registry
// on first use. Run after a build: `node scripts/mcp-inspector.mjs`; exits non-zero when a step
// fails. Pinned to 0.15.0: later releases need Node 22 (their `engines`), wes supports Node 20.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startDevServer } from '../dist/dev-server.js';

const INSPECTOR = '@modelcontextprotocol/inspector@0.15.0';
const bin = resolve(import.meta.dirname, '../bin/wes.js');
const work = mkdtempSync(join(tmpdir(), 'wes-inspector-'));
const server = await startDevServer({ port: 0, stepMs: 10, apiKey: 'wes-inspector-key' });
const flow = join(work, 'flow.json');
writeFileSync(flow, JSON.stringify({
  '1': { class_type: 'EmptyImage', inputs: { width: 32, height: 32, batch_size: 1, color: 3368652 } },
  '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 4, seed: 1, denoise: 1, sampler_name: 'euler' } },
  '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'inspector' } },
}));

/** One Inspector CLI run against `wes mcp`; its JSON answer. Asynchronous: the dev-server answers from this process. */
async function inspect(...method) {
  const env = ['-e', `WES_BASE_URL=${server.url}`, '-e', `WES_API_KEY=${server.apiKey}`, '-e', `WES_CONFIG_DIR=${work}`, '-e', `WES_STATE_DIR=${work}`];
  const args = ['-y', INSPECTOR, '--cli', ...env, process.execPath, bin, 'mcp', ...method];
  console.log(`$ npx ${args.map((a) => (/[\s"{]/.test(a) ? `'${a}'` : a)).join(' ')}`);
  const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const status = await new Promise((done) => child.on('close', done));
  if (status !== 0) throw new Error(`the Inspector exited ${status}: ${stderr}`);
  return JSON.parse(stdout);
}

let failed = false;
try {
  const { tools } = await inspect('--method', 'tools/list');
  console.log(`${tools.length} tools: ${tools.map((t) => t.name).join(', ')}\n`);
  if (!tools.some((t) => t.name === 'submit_job' && t.inputSchema?.type === 'object')) throw new Error('submit_job is not listed with an input schema');

  const submitted = await inspect('--method', 'tools/call', '--tool-name', 'submit_job', '--tool-arg', `workflow=${flow}`, '--tool-arg', 'wait=true');
  const job = submitted.structuredContent?.job;
  console.log(`submit_job: isError ${submitted.isError === true}, job ${job?.id} ${job?.status}, outputs ${job?.outputs?.map((o) => `${o.name} (${o.size_bytes} bytes, ${o.hash})`).join(', ')}\n`);
  if (submitted.isError || job?.status !== 'succeeded') throw new Error(`submit_job did not succeed: ${submitted.content?.[0]?.text}`);

  const ran = await inspect('--method', 'tools/call', '--tool-name', 'run_model', '--tool-arg', 'model=dev/echo', '--tool-arg', 'input={"prompt":"a lighthouse"}');
  console.log(`run_model: isError ${ran.isError === true}, output ${JSON.stringify(ran.structuredContent?.output)}`);
  if (ran.isError) throw new Error(`run_model failed: ${ran.content?.[0]?.text}`);
} catch (err) {
  failed = true;
  console.error(`mcp-inspector: ${err.message}`);
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
