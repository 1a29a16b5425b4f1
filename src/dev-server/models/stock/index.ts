// The runnable dev models (provider `dev`); each stands for one outcome of the router. The
// README next to the router lists how to trigger each.
import { captionModel } from './caption.js';
import { echoModel } from './echo.js';
import { imageModel } from './image.js';
import { brokenModel, flakyModel, meteredModel, timeoutModel } from './provider-faults.js';
import { slowModel } from './slow.js';
import { speechModel } from './speech.js';
import { textModel } from './text.js';
import type { ModelBehaviour } from './types.js';
import { upscaleModel } from './upscale.js';

export type { ModelBehaviour } from './types.js';

export const BLOCKED_TERMS = ['violence', 'forbidden', 'nsfw'] as const;

export const RUNNABLE_MODELS: readonly ModelBehaviour[] = [
  echoModel,
  upscaleModel,
  imageModel('dev/image', 'when_provider_charges'),
  slowModel,
  textModel('dev/moderated', {
    summary: `Generates text; refuses prompts mentioning ${BLOCKED_TERMS.join(', ')}.`,
    chargesOnPolicyRejection: 'always',
    blockedTerms: BLOCKED_TERMS,
  }),
  brokenModel,
  flakyModel,
  meteredModel,
  timeoutModel,
  speechModel,
  captionModel,
];
