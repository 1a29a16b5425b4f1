// Schema fragments several dev models share. Each model's document still stands alone: a model
// copies the fragments it uses into its own `components.schemas`.
import type { JsonObject } from './types.js';

export const promptSchema = (maxLength: number): JsonObject => ({
  type: 'string',
  minLength: 1,
  maxLength,
  description: 'What the model should produce, in plain language.',
});

export const seedSchema: JsonObject = {
  type: 'integer',
  minimum: 0,
  maximum: 4294967295,
  description: 'Fixes the random seed so the same input gives the same result.',
};

export const dimensionSchema: JsonObject = {
  type: 'integer',
  minimum: 64,
  maximum: 1024,
  multipleOf: 8,
  default: 512,
  description: 'Pixels; a multiple of 8.',
};

export const outputFormatSchema: JsonObject = {
  type: 'string',
  enum: ['png', 'jpeg', 'webp'],
  default: 'png',
  description: 'Encoding of the produced image.',
};
