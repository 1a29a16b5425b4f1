import { invertImage, type RgbImage } from '../image.js';
import type { NodeClass } from './types.js';

/** ComfyUI's ImageInvert (the recordings' invert workflow: EmptyImage -> ImageInvert -> SaveImage). */
export const ImageInvert: NodeClass = {
  name: 'ImageInvert',
  display_name: 'Invert Image',
  category: 'image',
  description: 'Inverts every colour channel.',
  required: {
    image: { type: 'IMAGE' },
  },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs) {
    return [invertImage(inputs.image as RgbImage)];
  },
};
