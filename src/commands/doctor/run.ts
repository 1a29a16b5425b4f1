// wes doctor: runs every check, prints one row per check (a table, or --json the array), the
// hints of what failed on stderr, and exits by the most basic failure.
import type { Factory } from '../../factory.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import { renderTable } from '../../render/table.js';
import { doctorExitCode, runChecks, type Check, type CheckStatus } from './checks.js';

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

export async function run(f: Factory): Promise<number> {
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
