// Models whose provider (or a service behind the router) misbehaves, one outcome each:
// dev/broken (provider_error), dev/flaky (service_unavailable until it clears),
// dev/metered (rate_limited: a windowed allowance), dev/timeout (provider_timeout).
import { completeText, textInputSchemas } from './text.js';
import { failure, numberField, okJson, sleep, type ModelBehaviour } from './types.js';

const PROVIDER_DEADLINE_MS = 200;
export const METERED_ALLOWANCE = 2;
export const METERED_WINDOW_MS = 2000;

function textBased(id: string, summary: string, run: ModelBehaviour['run']): ModelBehaviour {
  return { id, summary, chargesOnPolicyRejection: 'never', schemas: textInputSchemas, costCents: () => 1, run };
}

/** The provider answers with something that is not a result. */
export const brokenModel = textBased('dev/broken', 'Its provider always fails (provider_error).', async (call) => {
  const bytes = call.raw.length;
  return failure(502, 'provider_error', `The provider answered HTTP 500 with an unreadable body after receiving ${bytes} bytes; nothing was produced.`);
});

/**
 * A dependency is down for the first `unavailable_times` attempts of the same call (same
 * credential and body), then recovers: the retry succeeds with an unchanged request.
 */
export const flakyModel: ModelBehaviour = {
  ...textBased('dev/flaky', 'Unavailable (503) for the first unavailable_times attempts of a call.', async (call) => {
    const seen = (call.memory.get(call.callDigest) as number | undefined) ?? 0;
    call.memory.set(call.callDigest, seen + 1);
    const times = numberField(call.input, 'unavailable_times', 1);
    if (seen < times) {
      return failure(503, 'service_unavailable', `The model's queue service is temporarily unavailable (attempt ${seen + 1} of ${times} failing); retry shortly.`, { 'retry-after': '1' });
    }
    const { unavailable_times: _times, ...textInput } = call.input;
    return okJson({ model: 'dev/flaky', attempts: seen + 1, ...completeText(textInput) });
  }),
  schemas: () => {
    const schemas = textInputSchemas();
    const input = schemas.Input as { properties: Record<string, unknown> };
    input.properties.unavailable_times = { type: 'integer', minimum: 0, maximum: 5, default: 1, description: 'How many attempts fail before the call succeeds.' };
    return schemas;
  },
};

/** A windowed allowance per credential: METERED_ALLOWANCE calls per METERED_WINDOW_MS. */
export const meteredModel = textBased('dev/metered', `Allows ${METERED_ALLOWANCE} calls per ${METERED_WINDOW_MS / 1000}-second window per credential.`, async (call) => {
  const now = Date.now();
  const key = `window:${call.credential}`;
  const recent = ((call.memory.get(key) as number[] | undefined) ?? []).filter((t) => now - t < METERED_WINDOW_MS);
  if (recent.length >= METERED_ALLOWANCE) {
    const waitMs = METERED_WINDOW_MS - (now - recent[0]!);
    call.memory.set(key, recent);
    return failure(429, 'rate_limited', `Allowance of ${METERED_ALLOWANCE} calls per ${METERED_WINDOW_MS / 1000}-second window spent; the window rolls in ${Math.ceil(waitMs / 1000)} s.`, {
      'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    });
  }
  call.memory.set(key, [...recent, now]);
  return okJson({ model: 'dev/metered', ...completeText(call.input) });
});

/** The provider never answers within its own deadline. */
export const timeoutModel = textBased('dev/timeout', 'Its provider never answers in time (provider_timeout).', async (call) => {
  await sleep(PROVIDER_DEADLINE_MS, call.signal);
  return failure(504, 'provider_timeout', `The provider did not answer within its ${PROVIDER_DEADLINE_MS} ms deadline.`);
});
