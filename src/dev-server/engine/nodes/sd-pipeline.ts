// ComfyUI's text-to-image classes the recordings run (recordings/workflows/sampler8.json:
// CheckpointLoaderSimple -> CLIPTextEncode x2 + EmptyLatentImage -> KSampler -> VAEDecode ->
// SaveImage), with ComfyUI's input names, types and bounds. Nothing here is a model: the
// checkpoint's parts are names, a conditioning is its text, a latent is a grey image that
// KSampler perturbs step by step as Sample does (progress and previews), and VAEDecode hands it on.
import { solidImage, type RgbImage } from '../image.js';
import { Sample, SAMPLERS } from './sample.js';
import type { NodeClass } from './types.js';

/** The one checkpoint this engine "has" (the recordings' random-weight one). */
export const CHECKPOINTS = ['random-sd15.safetensors'];
const SCHEDULERS = ['normal', 'karras', 'exponential', 'sgm_uniform', 'simple', 'ddim_uniform', 'beta'];
const MAX_RESOLUTION = 16384;

export const CheckpointLoaderSimple: NodeClass = {
  name: 'CheckpointLoaderSimple',
  display_name: 'Load Checkpoint',
  category: 'loaders',
  description: 'Loads a diffusion model checkpoint.',
  required: { ckpt_name: { type: 'COMBO', choices: CHECKPOINTS, tooltip: 'The name of the checkpoint (model) to load.' } },
  outputs: [{ type: 'MODEL', name: 'MODEL' }, { type: 'CLIP', name: 'CLIP' }, { type: 'VAE', name: 'VAE' }],
  output_node: false,
  async run(inputs) {
    const name = inputs.ckpt_name as string;
    return [`model:${name}`, `clip:${name}`, `vae:${name}`];
  },
};

export const CLIPTextEncode: NodeClass = {
  name: 'CLIPTextEncode',
  display_name: 'CLIP Text Encode (Prompt)',
  category: 'conditioning',
  description: 'Encodes a text prompt into a conditioning.',
  required: {
    text: { type: 'STRING', multiline: true, tooltip: 'The text to be encoded.' },
    clip: { type: 'CLIP', tooltip: 'The CLIP model used for encoding the text.' },
  },
  outputs: [{ type: 'CONDITIONING', name: 'CONDITIONING' }],
  output_node: false,
  async run(inputs) {
    return [inputs.text as string];
  },
};

export const EmptyLatentImage: NodeClass = {
  name: 'EmptyLatentImage',
  display_name: 'Empty Latent Image',
  category: 'latent',
  description: 'A batch of empty latent images to be denoised.',
  required: {
    width: { type: 'INT', default: 512, min: 16, max: MAX_RESOLUTION },
    height: { type: 'INT', default: 512, min: 16, max: MAX_RESOLUTION },
    batch_size: { type: 'INT', default: 1, min: 1, max: 4096 },
  },
  outputs: [{ type: 'LATENT', name: 'LATENT' }],
  output_node: false,
  async run(inputs) {
    const latent = solidImage(inputs.width as number, inputs.height as number, 0x808080);
    const batch = inputs.batch_size as number;
    return [batch > 1 ? { ...latent, batch } : latent];
  },
};

export const KSampler: NodeClass = {
  name: 'KSampler',
  display_name: 'KSampler',
  category: 'sampling',
  description: 'Denoises a latent image step by step; every step reports progress and a preview frame.',
  required: {
    model: { type: 'MODEL' },
    seed: { type: 'INT', default: 0, min: 0, max: Number.MAX_SAFE_INTEGER },
    steps: { type: 'INT', default: 20, min: 1, max: 10000 },
    cfg: { type: 'FLOAT', default: 8, min: 0, max: 100 },
    sampler_name: { type: 'COMBO', choices: SAMPLERS, default: 'euler' },
    scheduler: { type: 'COMBO', choices: SCHEDULERS, default: 'normal' },
    positive: { type: 'CONDITIONING' },
    negative: { type: 'CONDITIONING' },
    latent_image: { type: 'LATENT' },
    denoise: { type: 'FLOAT', default: 1, min: 0, max: 1 },
  },
  outputs: [{ type: 'LATENT', name: 'LATENT' }],
  output_node: false,
  weight: (inputs) => Sample.weight!(inputs),
  async run(inputs, ctx) {
    const latent = inputs.latent_image as RgbImage;
    const [sampled] = await Sample.run({ image: latent, steps: inputs.steps, seed: inputs.seed, denoise: inputs.denoise, sampler_name: inputs.sampler_name }, ctx);
    return [{ ...(sampled as RgbImage), ...(latent.batch ? { batch: latent.batch } : {}) }];
  },
};

export const VAEDecode: NodeClass = {
  name: 'VAEDecode',
  display_name: 'VAE Decode',
  category: 'latent',
  description: 'Decodes latent images back into pixel space images.',
  required: {
    samples: { type: 'LATENT', tooltip: 'The latent to be decoded.' },
    vae: { type: 'VAE', tooltip: 'The VAE model used for decoding the latent.' },
  },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs) {
    return [inputs.samples as RgbImage];
  },
};
