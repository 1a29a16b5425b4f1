import { decodePng, PngDecodeError } from '../png.js';
import { NodeRaised, type NodeClass } from './types.js';

export const LoadImage: NodeClass = {
  name: 'LoadImage',
  display_name: 'Load Image',
  category: 'image',
  description: 'Loads an uploaded PNG asset, named by its asset id or its file_path.',
  required: { image: { type: 'STRING', asset: true, tooltip: 'asset id (UUID) or file_path of an uploaded asset' } },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs, ctx) {
    const ref = inputs.image as string;
    const found = await ctx.readAsset(ref);
    const frame = { file: '/srv/engine/nodes.py', line: 1703, func: 'load_image', code: 'img = node_helpers.pillow(Image.open, image_path)' };
    if (!found) throw new NodeRaised('FileNotFoundError', `[Errno 2] No such file or directory: '${ref}'`, frame);
    if (!found.bytes) throw new NodeRaised('DecompressionBombError', `image file '${found.asset.file_path}' is too large to load`, frame);
    try {
      return [decodePng(found.bytes)];
    } catch (err) {
      if (err instanceof PngDecodeError) {
        throw new NodeRaised('UnidentifiedImageError', `cannot identify image file '${found.asset.file_path}' (${err.message})`, frame);
      }
      throw err;
    }
  },
};
