// Image-generation models: real PNGs stored as assets and returned as signed https?:// URLs on the
// signed listener, so clients can test downloading without sending credentials.
import { dimensionSchema, promptSchema, seedSchema } from './schema-parts.js';
import { encodeGradientPng } from './png.js';
import { numberField, okJson, stringField, type JsonObject, type ModelBehaviour } from './types.js';
import { createHash } from 'node:crypto';

export const imageInputSchemas = (): JsonObject => ({
  Input: {
    type: 'object',
    required: ['prompt'],
    additionalProperties: false,
    properties: {
      prompt: { $ref: '#/components/schemas/Prompt' },
      negative_prompt: { type: 'string', maxLength: 1000, description: 'What to keep out of the picture.' },
      width: { $ref: '#/components/schemas/Dimension' },
      height: { $ref: '#/components/schemas/Dimension' },
      num_images: { type: 'integer', minimum: 1, maximum: 4, default: 1, description: 'How many pictures to make.' },
      guidance_scale: { type: 'number', minimum: 0, maximum: 20, default: 7.5, description: 'How closely to follow the prompt.' },
      seed: { $ref: '#/components/schemas/Seed' },
    },
  },
  Prompt: promptSchema(1000),
  Dimension: dimensionSchema,
  Seed: seedSchema,
});

function seedOf(input: JsonObject): number {
  if (typeof input.seed === 'number') return input.seed >>> 0;
  return createHash('sha256').update(stringField(input, 'prompt')).digest().readUInt32BE(0);
}

export function imageModel(id: string, chargesOnPolicyRejection: string): ModelBehaviour {
  return {
    id,
    summary: 'Generates PNG images from a prompt; the output links to them.',
    chargesOnPolicyRejection,
    schemas: imageInputSchemas,
    costCents: (input) => 3 * numberField(input, 'num_images', 1),
    run: async (call) => {
      const width = numberField(call.input, 'width', 512);
      const height = numberField(call.input, 'height', 512);
      const seed = seedOf(call.input);
      const images = [];
      for (let i = 0; i < numberField(call.input, 'num_images', 1); i++) {
        const png = encodeGradientPng(width, height, seed + i);
        const file = await call.publish(png, `image-${seed}-${i}.png`, 'image/png');
        images.push({ url: file.url, expires_at: file.expires_at, width, height, content_type: 'image/png' });
      }
      return okJson({ model: id, seed, images });
    },
  };
}
