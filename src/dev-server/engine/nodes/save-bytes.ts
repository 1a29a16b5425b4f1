import { MEDIA_TYPE } from '../../assets/media-type.js';
import { hash32 } from '../prng.js';
import { NodeRaised, padCounter, type NodeClass } from './types.js';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'video/mp4': 'mp4',
  'audio/wav': 'wav',
  'text/plain': 'txt',
  'application/json': 'json',
};

export const SaveBytes: NodeClass = {
  name: 'SaveBytes',
  display_name: 'Save Bytes',
  category: 'utils',
  description: 'Saves a large deterministic synthetic file of `size_bytes` bytes (streamed, for download benchmarks).',
  required: {
    size_bytes: { type: 'INT', default: 1024 * 1024, min: 0, max: 4 * 1024 * 1024 * 1024 },
    content_type: { type: 'STRING', default: 'application/octet-stream' },
  },
  outputs: [],
  output_node: true,
  async run(inputs, ctx) {
    const contentType = inputs.content_type as string;
    if (!MEDIA_TYPE.test(contentType)) {
      throw new NodeRaised('ValueError', `invalid content_type '${contentType}'`, {
        file: '/srv/engine/nodes_extra.py', line: 88, func: 'save_bytes', code: 'mime = validate_media_type(content_type)',
      });
    }
    const size = inputs.size_bytes as number;
    const extension = EXTENSIONS[contentType.split(';')[0]!.trim().toLowerCase()] ?? 'bin';
    const name = `bytes_${padCounter(ctx.nextCounter())}_.${extension}`;
    await ctx.commitSynthetic(name, contentType, size, hash32(`${size}:${contentType}`));
    return [];
  },
};
