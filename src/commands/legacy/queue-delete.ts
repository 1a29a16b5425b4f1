// wes legacy queue delete <prompt_id...> [--running]: takes pending prompts off the queue (the
// engine and the published cloud API delete pending prompts only). A running one is named as
// running, with the command that stops it, and left alone (exit 6) unless --running stops it
// (see stop-running.ts). What was deleted is checked against the queue afterwards: an engine
// answers with an empty body, and a prompt may have started meanwhile.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { isRecord } from '../../clients/legacy/client.js';
import { readQueue } from '../../clients/legacy/queue-state.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import type { LegacySession } from '../../clients/legacy/session.js';
import { interruptOnly } from '../../features/legacy/stop-running.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface LegacyQueueDeleteOptions {
  running?: boolean;
}

const legacyQueueDeleteOptions = (): OptionsDeclaration<LegacyQueueDeleteOptions> => ({
  running: flag('--running', 'also stop a named prompt that is running (as `legacy interrupt ID` does), instead of leaving it'),
});

const positional = { promptIds: arg('<prompt_id...>') };

interface Outcome {
  deleted: string[];
  interrupted: string[];
  running: string[];
  not_queued: string[];
  /** Still pending after the delete: the server kept them. */
  kept: string[];
}

/** Deletes the pending ones; returns those gone afterwards, those that started running meanwhile, and those the server kept. */
async function deletePending(session: LegacySession, ids: string[]): Promise<{ deleted: string[]; started: string[]; kept: string[] }> {
  if (ids.length === 0) return { deleted: [], started: [], kept: [] };
  const answer = await session.client.deleteFromQueue(ids);
  const after = await readQueue(session.client);
  const said = isRecord(answer) && Array.isArray(answer.deleted) ? new Set(answer.deleted.filter((d): d is string => typeof d === 'string')) : null;
  const started = ids.filter((id) => after.running.has(id));
  const kept = ids.filter((id) => after.pending.has(id));
  const deleted = ids.filter((id) => !after.running.has(id) && !after.pending.has(id) && (said === null || said.has(id)));
  return { deleted, started, kept };
}

async function run(f: Factory, { promptIds }: ArgsOf<typeof positional>, opts: LegacyQueueDeleteOptions): Promise<number> {
  const session = await legacyClient(f, 'queue delete');
  const before = await readQueue(session.client);
  const ids = [...new Set(promptIds)];
  const { deleted, started, kept } = await deletePending(session, ids.filter((id) => before.pending.has(id)));
  const running = [...ids.filter((id) => before.running.has(id)), ...started];
  const outcome: Outcome = { deleted, interrupted: [], running: [], not_queued: ids.filter((id) => !before.pending.has(id) && !before.running.has(id)), kept };
  if (opts.running && running.length > 0) {
    await interruptOnly(session, running, await readQueue(session.client));
    outcome.interrupted = running;
  } else outcome.running = running;
  if (f.io.json) f.io.printJson(outcome);
  else {
    if (deleted.length) f.io.info(`deleted ${deleted.length} pending prompt(s): ${deleted.map((d) => sanitizeLine(d)).join(', ')}`);
    if (outcome.interrupted.length) f.io.info(`interrupted running prompt(s): ${outcome.interrupted.join(', ')}`);
    if (outcome.not_queued.length) f.io.info(`not in the queue (ended, or unknown), left alone: ${outcome.not_queued.join(', ')}`);
  }
  if (kept.length > 0) {
    throw new WesError(`the server still lists ${kept.join(', ')} as pending after the delete`, { exitCode: ExitCode.ERROR, code: 'not_deleted', hint: 'see `wes legacy queue`, and try again', origin: 'legacy' });
  }
  if (outcome.running.length === 0) return 0;
  const list = outcome.running.join(' ');
  throw new WesError(`${outcome.running.length === 1 ? `prompt ${list} is` : `prompts ${outcome.running.join(', ')} are`} running; \`queue delete\` takes pending prompts only, so it runs on`, {
    exitCode: ExitCode.REFUSED,
    code: 'running',
    hint: `stop it with \`wes legacy interrupt ${outcome.running[0]}\`${outcome.running.length > 1 ? ' (one id per call)' : ''}, or delete with --running`,
    origin: 'legacy',
  });
}

export default defineVerb({
  path: ['legacy', 'queue', 'delete'],
  args: positional,
  options: legacyQueueDeleteOptions(),
  help: { summary: 'Take pending prompts off the queue; a running one is left (exit 6) unless --running stops it', after: ['\nExamples:\n  $ wes legacy queue delete "$PROMPT_ID"\n  $ wes legacy queue delete "$ID1" "$ID2" --running'] },
  run,
});
