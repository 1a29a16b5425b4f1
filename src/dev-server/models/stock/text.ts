// Text-generation models: a deterministic "completion" derived from the prompt. Options make the
// same behaviour refuse blocked prompts (content policy) for dev/moderated.
import { promptSchema, seedSchema } from './schema-parts.js';
import { numberField, okJson, stringField, type JsonObject, type ModelBehaviour, type ModelOutcome } from './types.js';
import { createHash } from 'node:crypto';

export interface TextModelOptions {
  summary?: string;
  chargesOnPolicyRejection: string;
  /** Prompts containing one of these words (case-insensitive) are refused on content-policy grounds. */
  blockedTerms?: readonly string[];
}

export const textInputSchemas = (): JsonObject => ({
  Input: {
    type: 'object',
    required: ['prompt'],
    additionalProperties: false,
    properties: {
      prompt: { $ref: '#/components/schemas/Prompt' },
      max_tokens: { type: 'integer', minimum: 1, maximum: 4096, default: 256, description: 'Upper bound on produced tokens.' },
      temperature: { type: 'number', minimum: 0, maximum: 2, default: 0.7, description: 'Sampling temperature.' },
      stop: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        maxItems: 4,
        description: 'Sequences that end the output.',
      },
      seed: { $ref: '#/components/schemas/Seed' },
    },
  },
  Prompt: promptSchema(4000),
  Seed: seedSchema,
});

/** The produced text: the prompt's words in reverse, cut at max_tokens words or a stop sequence. */
export function completeText(input: JsonObject): JsonObject {
  const prompt = stringField(input, 'prompt');
  const maxTokens = numberField(input, 'max_tokens', 256);
  const words = prompt.split(/\s+/).filter(Boolean);
  let text = words.reverse().slice(0, maxTokens).join(' ');
  const stops = Array.isArray(input.stop) ? input.stop.filter((s): s is string => typeof s === 'string') : [];
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0) text = text.slice(0, at);
  }
  return {
    id: `gen-${createHash('sha256').update(prompt).digest('hex').slice(0, 16)}`,
    output_text: text,
    finish_reason: text.split(' ').length >= maxTokens ? 'length' : 'stop',
    usage: { input_tokens: words.length, output_tokens: text.split(/\s+/).filter(Boolean).length },
  };
}

function refusal(input: JsonObject, blocked: readonly string[]): ModelOutcome | undefined {
  const prompt = stringField(input, 'prompt').toLowerCase();
  const term = blocked.find((t) => prompt.includes(t));
  if (term === undefined) return undefined;
  // The refused part is named (the published routes send it): here always the prompt, an input text.
  const detail = `The provider refused this prompt on content-policy grounds (it mentions "${term}"). Sending it again is refused again.`;
  return { kind: 'error', status: 400, errorType: 'content_policy_violation', detail, refusalSubject: 'input_text' };
}

export function textModel(id: string, options: TextModelOptions): ModelBehaviour {
  return {
    id,
    summary: options.summary ?? 'Generates text from a prompt.',
    chargesOnPolicyRejection: options.chargesOnPolicyRejection,
    schemas: textInputSchemas,
    costCents: (input) => 1 + Math.ceil(numberField(input, 'max_tokens', 256) / 1024),
    run: async (call) => refusal(call.input, options.blockedTerms ?? []) ?? okJson({ model: id, ...completeText(call.input) }),
  };
}
