// `wes legacy watch` following one prompt that sends 50 000 WebSocket messages, against a bare
// `ws` client script: client CPU time (user + system), which is what a flood costs a CI runner.
// The dev-server makes the flood with a chain of Sample nodes at step time 0 (four messages per
// step: progress, progress_state, a text frame and a preview frame). Each client must be
// connected before its prompt starts, so a blocker prompt holds the queue until it is.
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { summary, failureNote } from '../lib/compare.mjs';
import { measure } from '../lib/measure.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { NODE, missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { ratioTarget } from '../lib/targets.mjs';

const WS_CLIENT = fileURLToPath(new URL('../clients/ws-count.mjs', import.meta.url));
const MESSAGES = 50_000;
const MESSAGES_PER_STEP = 4;
const MAX_STEPS = 150; // Sample's maximum

function floodWorkflow(messages) {
  const samplers = Math.ceil(messages / MESSAGES_PER_STEP / MAX_STEPS);
  const workflow = { 1: { class_type: 'EmptyImage', inputs: { width: 16, height: 16, batch_size: 1, color: 0 } } };
  let previous = '1';
  for (let i = 0; i < samplers; i++) {
    const id = String(i + 2);
    workflow[id] = { class_type: 'Sample', inputs: { image: [previous, 0], steps: MAX_STEPS, seed: i, denoise: 1, sampler_name: 'euler' } };
    previous = id;
  }
  workflow.save = { class_type: 'SaveImage', inputs: { images: [previous, 0], filename_prefix: 'flood' } };
  return workflow;
}

// 150 steps of HOLD_STEP_MS each: time enough for any client to connect; once it has, the step
// time drops to 0 and the blocker's remaining steps take a millisecond or so each.
const HOLD_STEP_MS = 100;
const BLOCKER = {
  1: { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } },
  2: { class_type: 'Sample', inputs: { image: ['1', 0], steps: MAX_STEPS, seed: 0, denoise: 1, sampler_name: 'euler' } },
  3: { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'blocker' } },
};

/** Queues a blocker and the flood, starts the client, releases the queue once it is connected. */
async function followFlood(server, startClient) {
  const options = server.handle.state.options;
  options.stepMs = HOLD_STEP_MS;
  await server.request('POST', '/api/prompt', { v1: true, body: { prompt: BLOCKER } });
  const { prompt_id: promptId } = await server.request('POST', '/api/prompt', { v1: true, body: { prompt: floodWorkflow(MESSAGES) } });
  const sockets = () => server.handle.state.requestCounts.get('GET /ws') ?? 0;
  const before = sockets();
  const running = startClient(promptId);
  for (let waited = 0; sockets() === before && waited < 30_000; waited += 10) await sleep(10);
  await sleep(50); // the handshake completes after the upgrade request is counted
  options.stepMs = 0;
  return running;
}

export async function run(ctx) {
  const title = `legacy watch, ${MESSAGES.toLocaleString('en')} WS messages (CPU)`;
  const target = ratioTarget('legacy-watch');
  const missing = missingCommand(['legacy', 'watch']);
  if (missing) return [unavailable('legacy-watch', title, missing, target)];
  const server = await ctx.startServer({ stepMs: 0 });
  try {
    const config = tempDir('legacy-watch-cfg');
    const wsUrl = `${server.url.replace(/^http/, 'ws')}/ws?clientId=bench&token=${encodeURIComponent(server.apiKey)}`;
    const runs = ctx.full ? 3 : 1;
    const wes = [];
    const ref = [];
    let refMessages = 0;
    for (let i = 0; i < runs; i++) {
      const w = await followFlood(server, (id) => runWes(server, config, ['legacy', 'watch', id], { stdout: 'ignore', timeoutMs: 300_000 }));
      if (w.code !== 0) return [failed('legacy-watch', title, failureNote({ side: 'wes', result: w }), target)];
      wes.push(w);
      const r = await followFlood(server, (id) => measure(NODE, [WS_CLIENT, wsUrl, id], { timeoutMs: 300_000 }));
      if (r.code !== 0) return [failed('legacy-watch', title, failureNote({ side: 'reference', result: r }), target)];
      refMessages = JSON.parse(r.stdout).messages;
      ref.push(r);
    }
    const w = summary(wes);
    const r = summary(ref);
    if (!Number.isFinite(w.cpuMs)) return [unavailable('legacy-watch', title, 'not available (CPU time needs GNU time)', target)];
    return [
      row('legacy-watch', title, {
        wes: { value: w.cpuMs, unit: 'ms' },
        reference: { value: r.cpuMs, unit: 'ms', label: 'bare ws client CPU' },
        target,
        note: `${refMessages} messages seen by the reference; wall ${(w.wallMs / 1000).toFixed(1)} s vs ${(r.wallMs / 1000).toFixed(1)} s (paced by the server); wes peak RSS ${w.maxRssMb.toFixed(0)} MB vs ${r.maxRssMb.toFixed(0)} MB`,
        details: { wes: w, reference: r, messages: refMessages },
      }),
    ];
  } finally {
    await ctx.closeServer(server);
  }
}
