import { solidImage } from '../image.js';
import type { NodeClass } from './types.js';

const MAX_BATCH = 4096;

export const EmptyImage: NodeClass = {
  name: 'EmptyImage',
  display_name: 'Empty Image',
  category: 'image',
  description: 'A solid image of one colour.',
  // ComfyUI's bounds (MAX_RESOLUTION 16384). ComfyUI also declares `batch_size` (required, between
  // height and color); here it is read when a workflow carries it (the recordings' do) but not
  // declared, so that this engine's object_info, and the editor widget lists written for it, keep
  // their shape (a kept difference).
  required: {
    width: { type: 'INT', default: 512, min: 1, max: 16384 },
    height: { type: 'INT', default: 512, min: 1, max: 16384 },
    color: { type: 'INT', default: 0, min: 0, max: 0xffffff, tooltip: '0xRRGGBB' },
  },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs) {
    const image = solidImage(inputs.width as number, inputs.height as number, inputs.color as number);
    const given = inputs.batch_size;
    const batch = Number.isInteger(given) && (given as number) >= 1 && (given as number) <= MAX_BATCH ? (given as number) : 1;
    return [batch > 1 ? { ...image, batch } : image];
  },
};
