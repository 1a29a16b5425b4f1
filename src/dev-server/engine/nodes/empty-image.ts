import { solidImage } from '../image.js';
import type { NodeClass } from './types.js';

export const EmptyImage: NodeClass = {
  name: 'EmptyImage',
  display_name: 'Empty Image',
  category: 'image',
  description: 'A solid image of one colour.',
  // ComfyUI's bounds (MAX_RESOLUTION 16384). Its batch_size is required there; optional here so
  // that workflows written before it keep running (a kept difference).
  required: {
    width: { type: 'INT', default: 512, min: 1, max: 16384 },
    height: { type: 'INT', default: 512, min: 1, max: 16384 },
    color: { type: 'INT', default: 0, min: 0, max: 0xffffff, tooltip: '0xRRGGBB' },
  },
  optional: {
    batch_size: { type: 'INT', default: 1, min: 1, max: 4096 },
  },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs) {
    const image = solidImage(inputs.width as number, inputs.height as number, inputs.color as number);
    const batch = (inputs.batch_size as number | undefined) ?? 1;
    return [batch > 1 ? { ...image, batch } : image];
  },
};
