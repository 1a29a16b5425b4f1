// wes legacy queue clear [--yes]: takes every pending prompt off the queue (POST /api/queue
// {clear: true}; running prompts run on). It cannot be undone, and the queue may hold other
// people's prompts on a shared engine, so a terminal is asked first; off a terminal --yes is needed.
import type { Factory } from '../../factory.js';
import { ExitCode, UsageError, WesError } from '../../errors.js';
import { readQueue } from '../../clients/legacy/queue-state.js';
import { prompt } from '../../command-kit/auth/read-secret.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { defineVerb } from '../verb.js';

interface LegacyQueueClearOptions {
  yes?: boolean;
}

const options = (): OptionsDeclaration<LegacyQueueClearOptions> => ({
  yes: flag('-y, --yes', 'clear without asking (needed off a terminal)'),
});

async function confirmed(f: Factory, pending: number): Promise<boolean> {
  if (!f.io.stdinIsTTY || !f.io.stderrIsTTY) {
    throw new UsageError(`clearing takes ${pending} pending prompt(s) off the queue and cannot be undone; off a terminal it needs --yes`, 'wes legacy queue clear --yes');
  }
  const answer = await prompt(f.io, `take ${pending} pending prompt(s) off the queue? [y/N] `);
  return /^y(es)?$/i.test(answer);
}

async function run(f: Factory, _args: unknown, opts: LegacyQueueClearOptions): Promise<number> {
  const session = await legacyClient(f, 'queue clear');
  const before = await readQueue(session.client);
  if (before.pending.size === 0) {
    if (f.io.json) f.io.printJson({ cleared: [], running: [...before.running] });
    else f.io.info(`no pending prompts${before.running.size ? `; ${before.running.size} running, left alone` : ''}`);
    return 0;
  }
  if (!opts.yes && !(await confirmed(f, before.pending.size))) {
    f.io.info('left the queue as it is');
    return 0;
  }
  await session.client.clearQueue();
  const after = await readQueue(session.client);
  const cleared = [...before.pending].filter((id) => !after.pending.has(id) && !after.running.has(id));
  const kept = [...before.pending].filter((id) => after.pending.has(id));
  if (f.io.json) f.io.printJson({ cleared, running: [...after.running] });
  else f.io.info(`took ${cleared.length} pending prompt(s) off the queue${after.running.size ? `; ${after.running.size} running, left alone (stop one with \`wes legacy interrupt ID\`)` : ''}`);
  if (kept.length > 0) {
    throw new WesError(`the server still lists ${kept.length} of them as pending after the clear`, { exitCode: ExitCode.ERROR, code: 'not_deleted', hint: 'see `wes legacy queue`, and try again', origin: 'legacy' });
  }
  return 0;
}

export default defineVerb({
  path: ['legacy', 'queue', 'clear'],
  args: {},
  options: options(),
  help: {
    summary: 'Take every pending prompt off the queue (asks first on a terminal; --yes otherwise); running ones run on',
    after: ['\nExamples:\n  $ wes legacy queue clear\n  $ wes legacy queue clear --yes --json'],
  },
  run,
});
