// wes models run MODEL ... --queue [--wait]: queued delivery (the published router's requests
// route). The run is submitted under its Idempotency-Key (a submit whose answer was lost is sent
// again under the same key, and the router hands back the same request); the request id goes to
// stdout (the handle with --json) and into the local history (`wes models requests`). With --wait
// the request is followed and its output collected as `models result --wait` does.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import type { ModelsClient } from '../../clients/models/client.js';
import { collectQueued } from './follow.js';
import type { OutputTarget } from './output.js';
import type { ModelsRunOptions } from './options.js';
import { recordQueued } from '../../command-kit/models/requests-context.js';
import { sendKeyed } from './send-keyed.js';

export async function runQueued(f: Factory, client: ModelsClient, ref: ModelRef, body: Buffer, idempotencyKey: string, opts: ModelsRunOptions, target: OutputTarget): Promise<number> {
  const submitted = await sendKeyed(f, ref, opts, idempotencyKey, () => client.requests.submit(ref, body, idempotencyKey), 'the queued submit');
  const handle = submitted.value;
  const id = handle.request_id;
  recordQueued(f, ref, handle);
  if (submitted.replayed) f.io.info(sanitizeLine(`the router already had request ${id} for Idempotency-Key ${idempotencyKey} (Idempotent-Replayed): nothing new was queued or billed`));
  const position = handle.queue_position === undefined ? '' : `, position ${handle.queue_position}`;
  if (!opts.wait) {
    if (f.io.json) f.io.printJson(handle);
    else f.io.println(id);
    f.io.info(sanitizeLine(`queued ${ref.id} as request ${id} (${handle.status}${position})`));
    f.io.info(sanitizeLine(`follow it with: wes models status ${ref.id} ${id}`));
    f.io.info(sanitizeLine(`collect it with: wes models result ${ref.id} ${id} --wait`));
    return 0;
  }
  f.io.info(sanitizeLine(`queued ${ref.id} as request ${id} (${handle.status}${position})`));
  return collectQueued(f, client, ref, id, target, true);
}
