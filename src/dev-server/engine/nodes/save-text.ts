import { padCounter, type NodeClass } from './types.js';

export const SaveText: NodeClass = {
  name: 'SaveText',
  display_name: 'Save Text',
  category: 'utils',
  description: 'Saves the text as a UTF-8 text output named `text_{counter}_.txt`.',
  required: { text: { type: 'STRING', default: '', multiline: true } },
  outputs: [],
  output_node: true,
  async run(inputs, ctx) {
    const name = `text_${padCounter(ctx.nextCounter())}_.txt`;
    await ctx.commitBytes(name, 'text/plain; charset=utf-8', Buffer.from(inputs.text as string, 'utf8'));
    return [];
  },
};
