// dev/upscale: the strictly validating model. Its schema has every kind of constraint, and the
// "provider" adds its own checks on the decoded image (`image_too_small`), the kind of type value
// a client cannot know in advance.
import type { RouterValidationErrorDetail } from '../../../protocol/models.js';
import { outputFormatSchema } from './schema-parts.js';
import { pngSize } from './png.js';
import { numberField, okJson, stringField, type JsonObject, type ModelBehaviour } from './types.js';

const MIN_SIDE = 64;
const MAX_OUTPUT_PIXELS = 4096 * 4096;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeImage(value: string): { bytes?: Buffer; problem?: string } {
  const payload = value.startsWith('data:') ? value.slice(value.indexOf(',') + 1) : value;
  if (!BASE64.test(payload) || payload.length % 4 !== 0) return { problem: 'Image must be base64-encoded (optionally as a data: URI)' };
  return { bytes: Buffer.from(payload, 'base64') };
}

function checkImage(input: JsonObject): RouterValidationErrorDetail[] {
  if (typeof input.image !== 'string') return [];
  const decoded = decodeImage(input.image);
  if (!decoded.bytes) return [{ loc: ['image'], msg: decoded.problem!, type: 'value_error' }];
  const size = pngSize(decoded.bytes);
  if (!size) return [{ loc: ['image'], msg: 'Image could not be decoded as PNG', type: 'image_decode_error', ctx: { expected_format: 'png' } }];
  const problems: RouterValidationErrorDetail[] = [];
  if (size.width < MIN_SIDE || size.height < MIN_SIDE) {
    problems.push({
      loc: ['image'],
      msg: `Image must be at least ${MIN_SIDE}x${MIN_SIDE} pixels, got ${size.width}x${size.height}`,
      type: 'image_too_small',
      ctx: { min_width: MIN_SIDE, min_height: MIN_SIDE, width: size.width, height: size.height },
    });
  }
  const scale = numberField(input, 'scale', 2);
  if (size.width * size.height * scale * scale > MAX_OUTPUT_PIXELS) {
    problems.push({
      loc: ['image'],
      msg: `Upscaled image would exceed ${MAX_OUTPUT_PIXELS} pixels`,
      type: 'image_too_large',
      ctx: { max_output_pixels: MAX_OUTPUT_PIXELS },
    });
  }
  return problems;
}

export const upscaleModel: ModelBehaviour = {
  id: 'dev/upscale',
  summary: 'Upscales a PNG; validates its input strictly.',
  chargesOnPolicyRejection: 'when_provider_charges',
  schemas: () => ({
    Input: {
      type: 'object',
      required: ['image'],
      additionalProperties: false,
      properties: {
        image: {
          type: 'string',
          contentEncoding: 'base64',
          contentMediaType: 'image/png',
          description: 'The picture to upscale: base64 PNG or a data: URI, at least 64x64.',
        },
        scale: { $ref: '#/components/schemas/Scale' },
        creativity: { type: 'number', minimum: 0, maximum: 1, default: 0.35, description: 'How much detail may be invented.' },
        prompt: { type: 'string', maxLength: 500, description: 'Optional guidance for invented detail.' },
        face_enhance: { type: 'boolean', default: false, description: 'Sharpen faces.' },
        output_format: { $ref: '#/components/schemas/OutputFormat' },
        tags: {
          type: 'array',
          maxItems: 5,
          items: { type: 'string', minLength: 1, maxLength: 32 },
          description: 'Labels stored with the result.',
        },
        callback_url: { type: 'string', format: 'uri', description: 'Where to notify when done.' },
      },
    },
    Scale: { type: 'integer', enum: [2, 4], default: 2, description: 'Upscaling factor.' },
    OutputFormat: outputFormatSchema,
  }),
  costCents: (input) => (numberField(input, 'scale', 2) === 4 ? 8 : 4),
  check: checkImage,
  run: async (call) => {
    const size = pngSize(decodeImage(stringField(call.input, 'image')).bytes ?? Buffer.alloc(0))!;
    const scale = numberField(call.input, 'scale', 2);
    return okJson({
      width: size.width * scale,
      height: size.height * scale,
      scale,
      output_format: stringField(call.input, 'output_format', 'png'),
      creativity: numberField(call.input, 'creativity', 0.35),
      face_enhance: call.input.face_enhance === true,
      tags: Array.isArray(call.input.tags) ? call.input.tags : [],
    });
  },
};
