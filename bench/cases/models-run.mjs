// `wes models run` on the echo model with a 5 MB JSON body against its floor, `node -e 0` +
// `curl --data-binary` of the same file (timed in the same runs); the echoed bytes must equal
// the bytes sent.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { interleave, summary, failureNote } from '../lib/compare.mjs';
import { measure } from '../lib/measure.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { missingCommand, runWes, tempDir } from '../lib/wes.mjs';
import { nodeStart } from '../lib/floor.mjs';
import { ratioTarget } from '../lib/targets.mjs';

const BODY_BYTES = 5 * 1000 * 1000;
const MODEL = 'dev/echo';

/** A JSON object of about `bytes` bytes with varied keys, numbers and unicode. */
export function bodyOf(bytes) {
  const items = [];
  let length = 0;
  for (let i = 0; length < bytes - 200; i++) {
    const item = `{"n":${i},"text":"step ${i} — ${'abcdefghij'.repeat(6)}","ok":${i % 2 === 0}}`;
    items.push(item);
    length += item.length + 1;
  }
  return `{"message":"bench: 5 MB echo","items":[${items.join(',')}]}`;
}

export async function run(ctx) {
  const title = 'models run dev/echo, 5 MB body';
  const target = ratioTarget('models-run');
  const missing = missingCommand(['models', 'run'], ['--input', '--output']) ?? (ctx.tools.curl ? null : 'not available (curl missing)');
  if (missing) return [unavailable('models-run', title, missing, target)];
  const server = await ctx.server();
  const config = tempDir('models-run-cfg');
  const input = join(ctx.scratch, 'echo-input.json');
  writeFileSync(input, bodyOf(BODY_BYTES));
  const sent = readFileSync(input);
  const work = tempDir('models-run');
  let mismatch = null;
  const check = (side, file) => {
    const got = readFileSync(file);
    if (!got.equals(sent)) mismatch ??= `${side} output differs from the input (${got.length} vs ${sent.length} bytes)`;
    rmSync(file, { force: true });
  };
  const url = new URL(`/v1/models/${MODEL}`, server.url).href;
  const { results, failed: bad } = await interleave(
    {
      wes: async (i) => {
        const out = join(work, `wes-${i}.json`);
        const result = await runWes(server, config, ['models', 'run', MODEL, '--input', input, '--output', out]);
        if (result.code === 0) check('wes', out);
        return result;
      },
      curl: async (i) => {
        const out = join(work, `curl-${i}.json`);
        const result = await measure(ctx.tools.curl, ['-sS', '--fail', '-H', 'Expect:', '-H', `Authorization: Bearer ${server.apiKey}`, '-H', 'Content-Type: application/json', '--data-binary', `@${input}`, '-o', out, url]);
        if (result.code === 0) check('curl', out);
        return result;
      },
      node: nodeStart,
    },
    { warmup: 1, runs: ctx.runs(5) },
  );
  rmSync(work, { recursive: true, force: true });
  if (bad) return [failed('models-run', title, failureNote(bad), target)];
  const wes = summary(results.wes);
  const curl = summary(results.curl);
  const node = summary(results.node);
  return [
    row('models-run', title, {
      wes: { value: wes.wallMs, unit: 'ms' },
      reference: { value: node.wallMs + curl.wallMs, unit: 'ms', label: `node -e 0 ${node.wallMs.toFixed(0)} + curl ${curl.wallMs.toFixed(0)}` },
      target: { ...target, also: [{ text: 'bytes out = bytes in', pass: mismatch === null }] },
      note: mismatch ?? `${sent.length} bytes echoed unchanged; wes peak RSS ${wes.maxRssMb.toFixed(0)} MB, CPU ${wes.cpuMs.toFixed(0)} ms (node -e 0: ${node.cpuMs.toFixed(0)} ms, curl ${curl.cpuMs.toFixed(0)} ms); wes ${(wes.wallMs / curl.wallMs).toFixed(2)}× curl alone`,
      details: { wes, curl, node },
    }),
  ];
}
