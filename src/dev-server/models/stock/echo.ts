// dev/echo: answers with the request body byte for byte (key order, spacing, unicode kept), so
// clients can prove they pass the router's bytes through untouched. Free of charge.
import type { ModelBehaviour } from './types.js';

export const echoModel: ModelBehaviour = {
  id: 'dev/echo',
  summary: 'Returns the request body unchanged.',
  chargesOnPolicyRejection: 'never',
  schemas: () => ({
    Input: {
      type: 'object',
      description: 'Any JSON object; it comes back exactly as sent.',
      properties: {
        message: { type: 'string', description: 'A text to echo.' },
      },
      additionalProperties: true,
    },
  }),
  costCents: () => 0,
  run: async (call) => ({ kind: 'ok', body: call.raw }),
};
