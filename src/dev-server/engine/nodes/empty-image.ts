import { solidImage } from '../image.js';
import type { NodeClass } from './types.js';

export const EmptyImage: NodeClass = {
  name: 'EmptyImage',
  // ComfyUI names no display name for it, so object_info repeats the class name (0.3.18 observed).
  display_name: 'EmptyImage',
  category: 'image',
  description: 'A solid image of one colour.',
  // ComfyUI's inputs, order and bounds (MAX_RESOLUTION 16384): the editor saves `widgets_values` in
  // this order, so a save from a real editor converts against this engine as against ComfyUI.
  required: {
    width: { type: 'INT', default: 512, min: 1, max: 16384 },
    height: { type: 'INT', default: 512, min: 1, max: 16384 },
    batch_size: { type: 'INT', default: 1, min: 1, max: 4096 },
    color: { type: 'INT', default: 0, min: 0, max: 0xffffff, tooltip: '0xRRGGBB' },
  },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs) {
    const image = solidImage(inputs.width as number, inputs.height as number, inputs.color as number);
    const batch = inputs.batch_size as number;
    return [batch > 1 ? { ...image, batch } : image];
  },
};
