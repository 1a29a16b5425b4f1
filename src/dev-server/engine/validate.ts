// Checks an API-format workflow against object_info definitions before anything runs, and reports
// every bad node at once. Pure: reads only the workflow, the definitions and an asset lookup.
import type { NodeClassInfo, NodeError, NodeErrorReason } from '../contract.js';
import { nodesOnCycles } from '../../util/dependency-cycles.js';
import { dependencyOrder, isLink } from './graph.js';

export interface ValidationOptions {
  /** Whether the engine's input folder holds a file of this name; inputs marked image_upload are checked. */
  fileExists?: (name: string) => boolean;
  /** Node packs that provide classes missing here, named in unknown_node_class messages. */
  knownPacks?: Record<string, string>;
}

export interface ValidationReport {
  nodeErrors: Record<string, NodeError>;
  unknownClasses: string[];
  hasOutputNode: boolean;
  /** Execution order when the graph is sound. */
  order: string[];
}

interface ParsedInput {
  type: string;
  choices?: unknown[];
  options: Record<string, unknown>;
}

/** True for a UI-format (editor) workflow: top-level `nodes` and `links` arrays. */
export function isUiFormat(workflow: unknown): boolean {
  const w = workflow as Record<string, unknown> | null;
  return typeof w === 'object' && w !== null && Array.isArray(w.nodes) && Array.isArray(w.links);
}

function parseInput(entry: unknown[]): ParsedInput {
  const [head, options] = entry;
  const opts = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>;
  if (Array.isArray(head)) return { type: 'COMBO', choices: head, options: opts };
  return { type: String(head), options: opts };
}

function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value));
}

/** Reasons a literal value does not fit its input definition. */
function checkLiteral(name: string, value: unknown, spec: ParsedInput, options: ValidationOptions): NodeErrorReason[] {
  const reason = (type: string, message: string, detail = `${name}: ${show(value)}`): NodeErrorReason[] => [{ type, message, details: detail }];
  switch (spec.type) {
    case 'COMBO':
      return spec.choices!.includes(value)
        ? []
        : reason('value_not_in_list', `Value not in list: ${name}: ${show(value)} not in ${JSON.stringify(spec.choices)}`);
    case 'INT':
    case 'FLOAT': {
      if (typeof value !== 'number' || !Number.isFinite(value) || (spec.type === 'INT' && !Number.isInteger(value))) {
        return reason('invalid_input_type', `Failed to convert an input value to a ${spec.type} value`);
      }
      const { min, max } = spec.options as { min?: number; max?: number };
      if (min !== undefined && value < min) return reason('value_smaller_than_min', `Value ${value} smaller than min of ${min}`);
      if (max !== undefined && value > max) return reason('value_bigger_than_max', `Value ${value} bigger than max of ${max}`);
      return [];
    }
    case 'STRING': {
      if (typeof value !== 'string') return reason('invalid_input_type', 'Failed to convert an input value to a STRING value');
      // The engine reads the string as a file name in its input folder, as ComfyUI's LoadImage
      // does: an asset id is no file name there, and the engine refuses it in its own words.
      if (spec.options.image_upload && options.fileExists && !options.fileExists(value)) {
        return reason('custom_validation_failed', 'Custom validation failed for node', `${name} - Invalid image file: ${value}`);
      }
      return [];
    }
    case 'BOOLEAN':
      return typeof value === 'boolean' ? [] : reason('invalid_input_type', 'Failed to convert an input value to a BOOLEAN value');
    default:
      return reason('invalid_input_type', `Input ${name} of type ${spec.type} must be a link to another node's output`);
  }
}

export function validateWorkflow(
  workflow: Record<string, unknown>,
  info: Record<string, NodeClassInfo>,
  options: ValidationOptions = {},
): ValidationReport {
  // Node ids and class names are client text: `__proto__`, `constructor` or `toString` must be
  // plain keys, never Object.prototype members.
  const nodeErrors: Record<string, NodeError> = Object.create(null) as Record<string, NodeError>;
  const unknown = new Set<string>();
  const deps = new Map<string, string[]>();
  let hasOutputNode = false;
  const add = (id: string, classType: string | undefined, reasons: NodeErrorReason[]): void => {
    if (reasons.length === 0) return;
    const entry = (nodeErrors[id] ??= { ...(classType ? { class_type: classType } : {}), errors: [] });
    entry.errors.push(...reasons);
  };

  for (const [id, raw] of Object.entries(workflow)) {
    deps.set(id, []);
    const node = raw as { class_type?: unknown; inputs?: unknown } | null;
    if (typeof node !== 'object' || node === null || Array.isArray(node) || typeof node.class_type !== 'string') {
      add(id, undefined, [{ type: 'invalid_node', message: 'Node has no class_type', details: `${id}: ${show(raw)}` }]);
      continue;
    }
    const classType = node.class_type;
    const inputs = node.inputs ?? {};
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
      add(id, classType, [{ type: 'invalid_node', message: 'Node inputs must be an object', details: `inputs: ${show(inputs)}` }]);
      continue;
    }
    const definition = ownValue(info, classType);
    if (!definition) {
      unknown.add(classType);
      const pack = options.knownPacks ? ownValue(options.knownPacks, classType) : undefined;
      add(id, classType, [{
        type: 'unknown_node_class',
        message: `Node class ${classType} is not contained in this deployment's build${pack ? `; it is provided by the node pack ${pack}` : ''}`,
        details: `class_type: ${classType}`,
      }]);
      continue;
    }
    if ((definition as { output_node?: boolean }).output_node) hasOutputNode = true;
    const given = inputs as Record<string, unknown>;
    const specs: [string, unknown[], boolean][] = [
      ...Object.entries(definition.input.required).map(([n, e]) => [n, e, true] as [string, unknown[], boolean]),
      ...Object.entries(definition.input.optional ?? {}).map(([n, e]) => [n, e, false] as [string, unknown[], boolean]),
    ];
    for (const [name, entry, required] of specs) {
      const spec = parseInput(entry);
      const value = ownValue(given, name);
      if (value === undefined) {
        if (required) add(id, classType, [{ type: 'required_input_missing', message: 'Required input is missing', details: name }]);
        continue;
      }
      if (!isLink(value)) {
        add(id, classType, checkLiteral(name, value, spec, options));
        continue;
      }
      const [source, slot] = value;
      const target = ownValue(workflow, source) as { class_type?: unknown } | undefined;
      if (target === undefined) {
        add(id, classType, [{ type: 'bad_linked_input', message: `Input links to node ${source}, which is not in the workflow`, details: `${name}: ${show(value)}` }]);
        continue;
      }
      deps.get(id)!.push(source);
      const sourceInfo = typeof target?.class_type === 'string' ? ownValue(info, target.class_type) : undefined;
      if (!sourceInfo) continue; // the source node's own error says why
      const outputType = sourceInfo.output[slot];
      if (outputType === undefined) {
        add(id, classType, [{ type: 'bad_linked_input', message: `Node ${source} has no output ${slot}`, details: `${name}: ${show(value)}` }]);
      } else if (spec.type !== outputType && !(spec.type === 'COMBO' && outputType === 'COMBO')) {
        add(id, classType, [{
          type: 'return_type_mismatch',
          message: `Return type mismatch between linked nodes: ${name}, received_type(${outputType}) mismatch input_type(${spec.type})`,
          details: `${name}: ${show(value)}`,
        }]);
      }
    }
  }

  const cyclic = nodesOnCycles(deps);
  for (const id of cyclic) {
    const classType = (ownValue(workflow, id) as { class_type?: string } | undefined)?.class_type;
    const via = (deps.get(id) ?? []).filter((d) => cyclic.has(d));
    add(id, classType, [{ type: 'dependency_cycle', message: 'Dependency cycle detected', details: `${id} depends on ${via.join(', ')}` }]);
  }

  return {
    nodeErrors,
    unknownClasses: [...unknown],
    hasOutputNode,
    order: cyclic.size === 0 ? dependencyOrder(deps) : [],
  };
}
