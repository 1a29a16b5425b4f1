// A model run submitted for queued delivery (the published router's requests route) under its
// Idempotency-Key: a submit whose answer was lost is sent again under the same key, and the router
// hands back the same request. The request goes into the local history (`wes models requests`).
import type { ModelsClient } from '../../clients/models/client.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import type { RouterQueueSubmitResponse } from '../../protocol/models.js';
import type { FeatureContext } from '../context.js';
import type { FollowReporter } from '../reporter.js';
import { recordQueued } from './history.js';
import { sendModelCall, type ModelProgress } from './send.js';
import type { KeyedCall } from './in-doubt.js';

export interface Queued {
  handle: RouterQueueSubmitResponse;
  /** The router already had a request for this key (Idempotent-Replayed): nothing new was queued or billed. */
  replayed: boolean;
}

export async function submitQueued(f: FeatureContext, client: ModelsClient, ref: ModelRef, body: Buffer, call: KeyedCall, reporter: FollowReporter<ModelProgress>): Promise<Queued> {
  const submitted = await sendModelCall(f, () => client.requests.submit(ref, body, call.key), call, reporter);
  recordQueued(f, ref, submitted.value, reporter);
  return { handle: submitted.value, replayed: submitted.replayed };
}
