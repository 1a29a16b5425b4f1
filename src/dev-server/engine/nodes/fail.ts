import { NodeRaised, type NodeClass } from './types.js';

export const Fail: NodeClass = {
  name: 'Fail',
  display_name: 'Fail',
  category: 'testing',
  description: 'Raises RuntimeError(message) when it runs, to exercise failure handling.',
  required: { message: { type: 'STRING', default: 'Fail node raised on purpose' } },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs) {
    throw new NodeRaised('RuntimeError', inputs.message as string, {
      file: '/srv/engine/custom_nodes/testing/fail.py', line: 14, func: 'run', code: 'raise RuntimeError(message)',
    });
  },
};
