// dev/slow: runs for `duration_ms`, so a call can outlast the router's deadline (504
// deadline_exceeded, collected later with the same Idempotency-Key) or sit in flight while a test
// checks the per-credential limits; `cost_cents` sets the spend it commits while in flight.
import { promptSchema } from './schema-parts.js';
import { numberField, okJson, sleep, stringField, type ModelBehaviour } from './types.js';

export const slowModel: ModelBehaviour = {
  id: 'dev/slow',
  summary: 'Takes duration_ms to answer; commits cost_cents while in flight.',
  chargesOnPolicyRejection: 'never',
  schemas: () => ({
    Input: {
      type: 'object',
      additionalProperties: false,
      properties: {
        prompt: { $ref: '#/components/schemas/Prompt' },
        duration_ms: { type: 'integer', minimum: 0, maximum: 60000, default: 1500, description: 'How long the generation takes.' },
        cost_cents: { type: 'integer', minimum: 0, maximum: 1000000, default: 5, description: 'Price of the call in US cents.' },
      },
    },
    Prompt: promptSchema(1000),
  }),
  costCents: (input) => numberField(input, 'cost_cents', 5),
  run: async (call) => {
    const started = Date.now();
    const duration = numberField(call.input, 'duration_ms', 1500);
    await sleep(duration, call.signal);
    return okJson({ prompt: stringField(call.input, 'prompt'), duration_ms: duration, took_ms: Date.now() - started });
  },
};
