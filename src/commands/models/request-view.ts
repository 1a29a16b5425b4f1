// A queued request as `models run --queue` shows it once submitted: its id on stdout (the handle
// with --json), and on stderr where it is and the commands that follow and collect it; a submit
// the router answered from the key's record says nothing new was queued or billed.
import type { Factory } from '../../factory.js';
import type { Queued } from '../../features/models/queue.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import { sanitizeLine } from '../../util/sanitize.js';

/** `waits`: the command follows the request on (--wait), so stdout is the output's, not the id's. */
export function showQueued(f: Factory, ref: ModelRef, { handle, replayed }: Queued, idempotencyKey: string, waits: boolean): void {
  const id = handle.request_id;
  if (replayed) f.io.info(sanitizeLine(`the router already had request ${id} for Idempotency-Key ${idempotencyKey} (Idempotent-Replayed): nothing new was queued or billed`));
  const position = handle.queue_position === undefined ? '' : `, position ${handle.queue_position}`;
  if (!waits) {
    if (f.io.json) f.io.printJson(handle);
    else f.io.println(id);
  }
  f.io.info(sanitizeLine(`queued ${ref.id} as request ${id} (${handle.status}${position})`));
  if (waits) return;
  f.io.info(sanitizeLine(`follow it with: wes models status ${ref.id} ${id}`));
  f.io.info(sanitizeLine(`collect it with: wes models result ${ref.id} ${id} --wait`));
}
