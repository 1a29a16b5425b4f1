// Stopping one running prompt and no other. An engine runs one prompt at a time; 0.3.64 stops only
// the prompt a `prompt_id` names, 0.3.18 ignores the name and stops whatever runs, so the queue is
// read first and nothing is sent unless the named prompt is the one running. The cloud API v1
// interrupts every running job of the account (its published document takes no id): it is asked
// only when the named job is the only one running.
import { ExitCode, WesError } from '../../errors.js';
import type { QueueState } from '../../clients/legacy/queue-state.js';
import type { LegacySession } from '../../clients/legacy/session.js';

function notRunning(promptId: string, queue: QueueState): WesError {
  const hint = queue.pending.has(promptId)
    ? `it is pending: take it off the queue with \`wes legacy queue delete ${promptId}\``
    : `it is not in the queue (it ended, or the id is unknown): see \`wes legacy status ${promptId}\``;
  return new WesError(`prompt ${promptId} is not running; nothing was interrupted`, { exitCode: ExitCode.REFUSED, code: 'not_running', hint, origin: 'legacy' });
}

/** Stops the named running prompts, or refuses (nothing sent) when that would stop another or one is not running. */
export async function interruptOnly(session: LegacySession, promptIds: string[], queue: QueueState): Promise<void> {
  const idle = promptIds.find((id) => !queue.running.has(id));
  if (idle !== undefined) throw notRunning(idle, queue);
  if (session.engine) {
    for (const id of promptIds) await session.client.interrupt(id);
    return;
  }
  const others = [...queue.running].filter((id) => !promptIds.includes(id));
  if (others.length > 0) {
    throw new WesError(`the cloud API v1 interrupts every running job, and ${others.length} other(s) are running (${others.join(', ')}); nothing was interrupted`, {
      exitCode: ExitCode.REFUSED,
      code: 'would_interrupt_others',
      hint: `stop one job alone with \`wes jobs cancel ${promptIds[0]}\``,
      origin: 'legacy',
    });
  }
  await session.client.interrupt();
}
