// Start-up: `wes --version` and `wes --help` against the floor of any node CLI, `node -e 0`.
import { interleave, summary, failureNote } from '../lib/compare.mjs';
import { measure } from '../lib/measure.mjs';
import { failed, row } from '../lib/report.mjs';
import { NODE, tempDir, wesArgs } from '../lib/wes.mjs';
import { ratioTarget } from '../lib/targets.mjs';

const CASES = [
  { id: 'version', title: 'wes --version', args: ['--version'], target: ratioTarget('version') },
  { id: 'help', title: 'wes --help', args: ['--help'], target: ratioTarget('help') },
];

export async function run(ctx) {
  const env = { ...process.env, WES_CONFIG_DIR: tempDir('startup'), NO_COLOR: '1' };
  const rows = [];
  for (const c of CASES) {
    const { results, failed: bad } = await interleave(
      {
        wes: () => measure(NODE, wesArgs(...c.args), { env }),
        reference: () => measure(NODE, ['-e', '0'], { env }),
      },
      { warmup: 3, runs: ctx.runs(10) },
    );
    if (bad) {
      rows.push(failed(c.id, c.title, failureNote(bad), c.target));
      continue;
    }
    const wes = summary(results.wes);
    const ref = summary(results.reference);
    rows.push(
      row(c.id, c.title, {
        wes: { value: wes.wallMs, unit: 'ms' },
        reference: { value: ref.wallMs, unit: 'ms', label: 'node -e 0' },
        target: c.target,
        details: { wes, reference: ref },
      }),
    );
  }
  return rows;
}
