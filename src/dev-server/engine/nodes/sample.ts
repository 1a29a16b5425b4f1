import { perturb, thumbnail, type RgbImage } from '../image.js';
import { hash32 } from '../prng.js';
import type { NodeClass } from './types.js';

export const SAMPLERS = ['euler', 'euler_ancestral', 'heun', 'dpmpp_2m', 'dpmpp_sde', 'ddim', 'uni_pc'];
const PREVIEW_EDGE = 32;

export const Sample: NodeClass = {
  name: 'Sample',
  display_name: 'Sample',
  category: 'sampling',
  description: 'Denoises an image step by step; every step reports progress and a preview frame.',
  required: {
    image: { type: 'IMAGE' },
    steps: { type: 'INT', default: 20, min: 1, max: 150 },
    seed: { type: 'INT', default: 0, min: 0, max: Number.MAX_SAFE_INTEGER },
    denoise: { type: 'FLOAT', default: 1, min: 0, max: 1 },
    sampler_name: { type: 'COMBO', choices: SAMPLERS, default: 'euler' },
  },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  weight: (inputs) => (typeof inputs.steps === 'number' ? inputs.steps : 1),
  async run(inputs, ctx) {
    const steps = inputs.steps as number;
    const base = hash32(`${inputs.seed}:${inputs.sampler_name}`);
    let image = inputs.image as RgbImage;
    for (let step = 1; step <= steps; step++) {
      image = perturb(image, (base + step * 0x9e3779b1) >>> 0, (inputs.denoise as number) / Math.sqrt(step));
      await ctx.step(step, steps, thumbnail(image, PREVIEW_EDGE));
    }
    ctx.log(`100%|██████████| ${steps}/${steps} [${((steps * ctx.stepMs) / 1000).toFixed(2)}s]`);
    return [image];
  },
};
