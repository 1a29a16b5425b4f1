import { solidImage } from '../image.js';
import type { NodeClass } from './types.js';

export const EmptyImage: NodeClass = {
  name: 'EmptyImage',
  display_name: 'Empty Image',
  category: 'image',
  description: 'A solid image of one colour.',
  required: {
    width: { type: 'INT', default: 512, min: 1, max: 2048 },
    height: { type: 'INT', default: 512, min: 1, max: 2048 },
    color: { type: 'INT', default: 0, min: 0, max: 0xffffff, tooltip: '0xRRGGBB' },
  },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs) {
    return [solidImage(inputs.width as number, inputs.height as number, inputs.color as number)];
  },
};
