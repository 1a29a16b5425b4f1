import type { RgbImage } from '../image.js';
import { encodePng } from '../png.js';
import { padCounter, type NodeClass } from './types.js';

export const SaveImage: NodeClass = {
  name: 'SaveImage',
  display_name: 'Save Image',
  category: 'image',
  description: 'Saves each image of the batch as a PNG output named `{filename_prefix}_{counter}_.png`.',
  required: {
    images: { type: 'IMAGE', tooltip: 'The images to save.' },
    filename_prefix: { type: 'STRING', default: 'wes' },
  },
  outputs: [],
  output_node: true,
  async run(inputs, ctx) {
    // The prefix is used as given, as the hosted engine reports it: clients sanitize names.
    const image = inputs.images as RgbImage;
    const png = encodePng(image);
    for (let i = 0; i < (image.batch ?? 1); i++) {
      const name = `${inputs.filename_prefix as string}_${padCounter(ctx.nextCounter())}_.png`;
      await ctx.commitBytes(name, 'image/png', png);
    }
    return [];
  },
};
