// The engine's checks of an API-format workflow (validate_prompt / validate_inputs in ComfyUI's
// execution.py), done locally against object_info: only nodes that feed an output node are
// checked, as the engine does; each problem carries the engine's error type and message. A loop of
// links among them is refused as the server refuses it (`dependency_cycle` on each node of it).
import { nodesOnCycles } from '../util/dependency-cycles.js';
import { compareNumbers, numberText } from './exact-number.js';
import { isRecord, nodeDef, type InputDef, type NodeDef, type ObjectInfo } from './node-defs.js';

export interface ValidationProblem {
  /** The node id, or '' for a problem of the whole workflow. */
  node: string;
  classType: string;
  type: string;
  message: string;
  details: string;
}

/** validate_node_input: `*` takes anything; otherwise the type names (or comma-separated sets) must meet. */
function typesMeet(received: string, wanted: string): boolean {
  if (received === '*' || wanted === '*' || received === wanted) return true;
  const r = received.split(',').map((t) => t.trim());
  const w = wanted.split(',').map((t) => t.trim());
  return r.some((t) => w.includes(t));
}

function shown(value: unknown): string {
  return numberText(value) ?? (typeof value === 'string' ? value : JSON.stringify(value));
}

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

class Validator {
  readonly problems: ValidationProblem[] = [];
  private readonly pending: string[] = [];
  /** Each checked node's linked origins (that exist), for finding loops; its keys are the nodes checked. */
  private readonly deps = new Map<string, string[]>();

  constructor(
    private readonly workflow: Record<string, unknown>,
    private readonly info: ObjectInfo,
  ) {}

  private add(node: string, classType: string, type: string, message: string, details = ''): void {
    this.problems.push({ node, classType, type, message, details });
  }

  run(): void {
    const outputs: string[] = [];
    for (const [id, raw] of Object.entries(this.workflow)) {
      const classType = isRecord(raw) && typeof raw.class_type === 'string' ? raw.class_type : undefined;
      if (classType === undefined) {
        this.add(id, '', 'invalid_prompt', 'Cannot execute because a node is missing the class_type property.', `Node ID '#${id}'`);
        continue;
      }
      const def = nodeDef(this.info, classType);
      if (!def) this.add(id, classType, 'invalid_prompt', `Cannot execute because node ${classType} does not exist.`, `Node ID '#${id}'`);
      else if (def.outputNode) outputs.push(id);
    }
    if (this.problems.length) return;
    if (outputs.length === 0) {
      this.add('', '', 'prompt_no_outputs', 'Prompt has no outputs');
      return;
    }
    // A worklist rather than recursion: a chain thousands of nodes long must not exhaust the stack.
    this.pending.push(...outputs);
    for (let id = this.pending.shift(); id !== undefined; id = this.pending.shift()) this.checkNode(id);
    this.checkCycles();
  }

  private checkCycles(): void {
    const cyclic = nodesOnCycles(this.deps);
    for (const id of cyclic) {
      const via = this.deps.get(id)!.filter((origin) => cyclic.has(origin));
      this.add(id, (this.workflow[id] as { class_type: string }).class_type, 'dependency_cycle', 'Dependency cycle detected', `${id} depends on ${[...new Set(via)].join(', ')}`);
    }
  }

  private checkNode(id: string): void {
    if (this.deps.has(id)) return;
    this.deps.set(id, []);
    const node = this.workflow[id] as { class_type: string; inputs?: unknown };
    const def = nodeDef(this.info, node.class_type)!;
    const inputs = isRecord(node.inputs) ? node.inputs : {};
    for (const input of def.inputs) {
      if (!Object.hasOwn(inputs, input.name)) {
        if (input.required) this.add(id, def.name, 'required_input_missing', 'Required input is missing', input.name);
        continue;
      }
      const value = inputs[input.name];
      if (Array.isArray(value)) this.checkLink(id, def, input, value);
      else this.checkValue(id, def, input, value);
    }
  }

  private checkLink(id: string, def: NodeDef, input: InputDef, link: unknown[]): void {
    const [from, slot] = link;
    if (link.length !== 2 || typeof from !== 'string' || typeof slot !== 'number') {
      this.add(id, def.name, 'bad_linked_input', 'Bad linked input, must be a length-2 list of [node_id, slot_index]', input.name);
      return;
    }
    const origin = Object.hasOwn(this.workflow, from) ? this.workflow[from] : undefined;
    const originDef = isRecord(origin) && typeof origin.class_type === 'string' ? nodeDef(this.info, origin.class_type) : undefined;
    if (!originDef) {
      this.add(id, def.name, 'bad_linked_input', 'Bad linked input: the linked node does not exist', `${input.name}: node ${from}`);
      return;
    }
    const received = originDef.outputs[slot];
    if (received === undefined) {
      this.add(id, def.name, 'bad_linked_input', `Bad linked input: ${originDef.name} has no output ${slot}`, `${input.name}: node ${from}`);
      return;
    }
    if (!typesMeet(received, input.type)) {
      this.add(id, def.name, 'return_type_mismatch', 'Return type mismatch between linked nodes', `${input.name}, received_type(${received}) mismatch input_type(${input.type})`);
    }
    this.deps.get(id)!.push(from);
    this.pending.push(from);
  }

  private checkValue(id: string, def: NodeDef, input: InputDef, value: unknown): void {
    if (input.type === 'COMBO') {
      if (!(input.choices ?? []).some((c) => c === value || (numberText(c) !== undefined && compareNumbers(c, value) === 0))) {
        this.add(id, def.name, 'value_not_in_list', 'Value not in list', `${input.name}: '${shown(value)}' not in ${JSON.stringify(input.choices ?? [])}`);
      }
      return;
    }
    if (input.type !== 'INT' && input.type !== 'FLOAT') return;
    const number = numberText(value) !== undefined ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : typeof value === 'boolean' ? Number(value) : undefined;
    if (number === undefined) {
      this.add(id, def.name, 'invalid_input_type', `Failed to convert an input value to a ${input.type} value`, `${input.name}, ${shown(value)}`);
      return;
    }
    const { min, max } = input.options;
    if (min !== undefined && compareNumbers(number, min) < 0) this.add(id, def.name, 'value_smaller_than_min', `Value ${shown(number)} smaller than min of ${shown(min)}`, input.name);
    if (max !== undefined && compareNumbers(number, max) > 0) this.add(id, def.name, 'value_bigger_than_max', `Value ${shown(number)} bigger than max of ${shown(max)}`, input.name);
  }
}

/** Every problem the engine would report for this API-format workflow (empty when it would accept it). */
export function validateApiWorkflow(workflow: Record<string, unknown>, info: ObjectInfo): ValidationProblem[] {
  const validator = new Validator(workflow, info);
  validator.run();
  return validator.problems;
}
