// wes doctor: runs every check, prints one row per check (a table, or --json the array), the
// hints of what failed on stderr, and exits by the most basic failure.
import type { Factory } from '../../factory.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import { renderTable } from '../../render/table.js';
import { doctorExitCode, runChecks, type Check, type CheckStatus } from '../../command-kit/doctor/checks.js';
import { noOptions } from '../typed-options.js';
import { defineVerb } from '../verb.js';

const LABEL: Record<CheckStatus, string> = { pass: '✓ pass', warn: '! warn', fail: '✗ fail', skip: '- skip' };

/** The hints of failed and warned checks, each once, with the checks it is for. */
function hintsOf(checks: Check[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of checks) {
    if (!c.hint || (c.status !== 'fail' && c.status !== 'warn')) continue;
    const where = `${c.check}${c.family ? ` ${c.family}` : ''}`;
    out.set(c.hint, [...(out.get(c.hint) ?? []), where]);
  }
  return out;
}

async function run(f: Factory): Promise<number> {
  const { io } = f;
  const progress = io.json ? undefined : await openProgressDisplay(io, 'checking configuration, API families and clock…');
  let checks: Check[];
  try {
    checks = await runChecks(f);
  } finally {
    progress?.stop();
  }
  if (io.json) {
    io.printJson(checks);
  } else {
    io.println(renderTable(io, ['check', 'family', 'status', 'detail'], checks.map((c) => [c.check, c.family ?? '', io.stdoutIsTTY ? LABEL[c.status] : c.status, c.detail]), 'stdout', { wrap: [3] }));
    for (const [hint, where] of hintsOf(checks)) io.warn(`${io.errStyle.yellow('hint')} (${where.join(', ')}): ${hint}`);
    const failed = checks.filter((c) => c.status === 'fail').length;
    const warned = checks.filter((c) => c.status === 'warn').length;
    if (failed) io.warn(io.errStyle.red(`✗ ${failed} of ${checks.length} checks failed`));
    else io.info(io.errStyle.green(`✓ no check failed${warned ? ` (${warned} warning${warned === 1 ? '' : 's'})` : ''}`));
  }
  return doctorExitCode(checks);
}

export default defineVerb({
  path: ['doctor'],
  args: {},
  options: noOptions(),
  help: {
    summary: 'Check the configuration, each API family\'s reachability and credential, and the clock',
    group: 'Setup and tools:',
    after: [
      `
Checks, in order: the settings resolve; the config file is private (mode 0600); each API family
(jobs, models, legacy) answers; each accepts its credential; the local clock is within 60 s of
the servers' Date header (a warning, not a failure); last, which build runs (the npm package or
the single executable) and which blake3 it hashes with (native, or the WASM fallback). --json
prints the array of checks.

Exit code: 0 when nothing failed; otherwise that of the most basic failure: 2 settings do not
resolve, 1 config file readable by others or an API unreachable, 4 a credential refused.

Examples:
  $ wes doctor
  $ wes --profile prod doctor --json | jq -r '.[] | select(.status != "pass") | .detail'
  $ wes doctor --base-url http://127.0.0.1:8188 --api-key wes-dev-key`,
    ],
  },
  run,
});
