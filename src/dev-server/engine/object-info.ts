// Renders node classes in the v1 object_info shape; the validator reads the same shape, so the
// server's checks and any client-side check from object_info cannot drift apart.
import type { NodeClassInfo } from '../contract.js';
import type { InputSpec, NodeClass } from './nodes/types.js';

function inputEntry(spec: InputSpec): unknown[] {
  const options: Record<string, unknown> = {};
  if (spec.default !== undefined) options.default = spec.default;
  if (spec.min !== undefined) options.min = spec.min;
  if (spec.max !== undefined) options.max = spec.max;
  if (spec.type === 'FLOAT') options.step = 0.01;
  if (spec.multiline) options.multiline = true;
  if (spec.asset) options.image_upload = true;
  if (spec.tooltip) options.tooltip = spec.tooltip;
  return spec.type === 'COMBO' ? [spec.choices ?? [], options] : [spec.type, options];
}

function inputs(specs: Record<string, InputSpec>): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, inputEntry(spec)]));
}

export function classInfo(node: NodeClass): NodeClassInfo {
  return {
    input: { required: inputs(node.required), ...(node.optional ? { optional: inputs(node.optional) } : {}) },
    input_order: { required: Object.keys(node.required), ...(node.optional ? { optional: Object.keys(node.optional) } : {}) },
    output: node.outputs.map((o) => o.type),
    output_is_list: node.outputs.map(() => false),
    output_name: node.outputs.map((o) => o.name),
    name: node.name,
    display_name: node.display_name,
    category: node.category,
    description: node.description,
    python_module: 'nodes',
    output_node: node.output_node,
  };
}

export function objectInfoOf(classes: Iterable<NodeClass>): Record<string, NodeClassInfo> {
  const info: Record<string, NodeClassInfo> = {};
  for (const node of classes) info[node.name] = classInfo(node);
  return info;
}
