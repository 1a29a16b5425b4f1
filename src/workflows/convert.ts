// The editor's "Export (API)" (graphToPrompt in the ComfyUI frontend, src/utils/executionUtil.ts),
// done without a browser: a UI-format workflow and the server's node definitions in, the API-format
// workflow out. Pure: values are copied, never re-parsed, so numbers (as parseJsonExact gives them)
// keep every digit and strings every character. Everything that stops an exact conversion is
// collected, so the caller can list every problem at once.
import { executionOrder } from './execution-order.js';
import { isRecord, nodeDef, widgetDefault, widgetSlots, type NodeDef, type ObjectInfo } from './node-defs.js';
import { LinkProblem, LinkResolver, VIRTUAL_TYPES } from './resolve.js';
import { buildScopes, execId, flatten, type Scope } from './scopes.js';
import { MODE_BYPASS, MODE_NEVER, readUiGraph, type UiGraph, type UiNode } from './ui-graph.js';

export interface ApiNode {
  inputs: Record<string, unknown>;
  class_type: string;
  _meta: { title: string };
}

export type ApiWorkflow = Record<string, ApiNode>;

export interface NodeProblem {
  node: string;
  classType: string;
  what: string;
}

export interface Conversion {
  workflow: ApiWorkflow;
  problems: NodeProblem[];
  /** Things converted as saved that the editor would have changed when queueing. */
  notes: string[];
}

/** The PrimitiveNode property that makes the editor rewrite %…% patterns in its value. */
const REPLACE_PROPERTY = 'Run widget replace on values';

/** Node ids and input names are the file's: `__proto__` must be a key like any other. */
function plainRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Arrays are reserved for links, so the editor boxes an array widget value (the engine unboxes it). */
function widgetValue(value: unknown): unknown {
  return Array.isArray(value) ? { __value__: value } : value;
}

function isGroupNode(node: UiNode, graph: UiGraph): boolean {
  return node.type.startsWith('workflow>') || node.type.startsWith('workflow/') || graph.groupNodeNames.has(node.type);
}

function describeSlots(def: NodeDef): string {
  const slots = widgetSlots(def);
  return slots.length ? slots.map((s) => s.label).join(', ') : 'none';
}

const DYNAMIC_SYNTAX = /\{[^{}]*\|[^{}]*\}|\/\/|\/\*/;

class Converter {
  private readonly problems: NodeProblem[] = [];
  readonly notes: string[] = [];
  private readonly graph: UiGraph;
  private readonly resolver = new LinkResolver();
  private readonly root: Scope;
  /** Definitions read once per class. */
  private readonly defs = new Map<string, NodeDef | undefined>();
  /** Widget values written by PrimitiveNodes: node id → widget name → value. */
  private readonly primitiveValues = new Map<string, Map<string, unknown>>();

  constructor(
    ui: Record<string, unknown>,
    private readonly info: ObjectInfo,
  ) {
    this.graph = readUiGraph(ui, (node, classType, what) => this.problem(node, classType, what));
    this.root = buildScopes(this.graph, (node, classType, what) => this.problem(node, classType, what));
  }

  problem(node: string, classType: string, what: string): void {
    this.problems.push({ node, classType, what });
  }

  /** Problems by the position of their node in the file (found in the editor's walking order). */
  problemsInFileOrder(): NodeProblem[] {
    const position = new Map(this.graph.nodes.map((n, i) => [n.id, i]));
    const at = (p: NodeProblem) => position.get(p.node.split(':')[0]!) ?? Number.MAX_SAFE_INTEGER;
    return [...this.problems].sort((a, b) => at(a) - at(b));
  }

  run(): ApiWorkflow {
    const entries = flatten(this.root, executionOrder(this.graph));
    for (const { scope, node } of entries) if (node.type === 'PrimitiveNode') this.applyPrimitive(scope, node);
    const out: ApiWorkflow = plainRecord();
    for (const { scope, node } of entries) {
      const id = execId(scope, node);
      const def = this.executableDef(scope, node, id);
      if (def) out[id] = this.convertNode(scope, node, id, def);
    }
    // As the editor does: an input fed by a node that is not sent (muted) is left out.
    for (const { inputs } of Object.values(out)) {
      for (const [name, value] of Object.entries(inputs)) {
        if (Array.isArray(value) && value.length === 2 && !Object.hasOwn(out, value[0] as string)) delete inputs[name];
      }
    }
    return out;
  }

  /** The definition of a node that is sent, or undefined for one that is not (with a problem when it cannot be). */
  private executableDef(scope: Scope, node: UiNode, id: string): NodeDef | undefined {
    if (VIRTUAL_TYPES.has(node.type)) return undefined;
    // A subgraph node is virtual: its inner nodes are sent (or it was refused when expanding).
    if (this.graph.subgraphs.has(node.type)) return undefined;
    if (node.mode === MODE_NEVER) return undefined;
    if (isGroupNode(node, this.graph)) {
      this.problem(id, node.type, 'a group node: wes does not expand group nodes; convert it to nodes in the editor (or use its Export (API))');
      return undefined;
    }
    if (node.mode === MODE_BYPASS) return undefined;
    if (node.type === '') {
      this.problem(id, '', 'the node has no type');
      return undefined;
    }
    if (!this.defs.has(node.type)) this.defs.set(node.type, nodeDef(this.info, node.type));
    const def = this.defs.get(node.type);
    if (!def) this.problem(id, node.type, 'unknown node class: the server\'s object_info does not define it');
    return def;
  }

  private convertNode(scope: Scope, node: UiNode, id: string, def: NodeDef): ApiNode {
    const inputs: Record<string, unknown> = plainRecord();
    this.widgetInputs(node, id, def, inputs);
    for (const [name, value] of this.primitiveValues.get(id) ?? []) {
      if (Object.hasOwn(inputs, name)) inputs[name] = widgetValue(value);
    }
    for (const [slot, input] of node.inputs.entries()) {
      try {
        const origin = this.resolver.resolveInput(scope, node, slot);
        if (origin && 'value' in origin) inputs[input.name] = widgetValue(origin.value);
        else if (origin) inputs[input.name] = [origin.nodeId, origin.slot];
      } catch (err) {
        if (err instanceof RangeError) this.problem(id, node.type, `input ${input.name}: the chain of Reroutes and bypassed nodes behind it is too long to follow`);
        else if (err instanceof LinkProblem) this.problem(id, node.type, err.message);
        else throw err;
      }
    }
    return { inputs, class_type: node.type, _meta: { title: node.title ?? def.displayName } };
  }

  /** widgets_values into named inputs: by position over the editor's widget slots, or by name when an object. */
  private widgetInputs(node: UiNode, id: string, def: NodeDef, inputs: Record<string, unknown>): void {
    const slots = widgetSlots(def);
    const values = node.widgetsValues;
    if (Array.isArray(values)) {
      if (values.length !== slots.length) {
        this.problem(id, node.type, `widgets_values has ${values.length} value(s) but ${node.type} takes ${slots.length}: ${describeSlots(def)}`);
        return;
      }
      slots.forEach((slot, i) => {
        if (slot.sent) inputs[slot.input] = widgetValue(values[i]);
      });
    } else if (isRecord(values)) {
      for (const slot of slots.filter((s) => s.sent)) {
        if (Object.hasOwn(values, slot.input)) inputs[slot.input] = widgetValue(values[slot.input]);
        else this.problem(id, node.type, `widgets_values has no value for ${slot.input}`);
      }
    } else {
      // Nothing saved (the editor's own default graph saves SaveImage so): each widget keeps its default.
      for (const input of def.inputs) if (slots.some((s) => s.sent && s.input === input.name)) inputs[input.name] = widgetValue(widgetDefault(input));
    }
    for (const input of def.inputs) {
      const value = inputs[input.name];
      if (input.options.dynamicPrompts === true && typeof value === 'string' && DYNAMIC_SYNTAX.test(value)) {
        this.notes.push(`node ${id} (${node.type}) ${input.name}: sent as saved; the editor would resolve its {a|b} choices and strip // and /* */ comments when queueing`);
      }
    }
  }

  /** PrimitiveNode.applyToGraph: its first widget value goes into the widget behind every input it feeds, through Reroutes. */
  private applyPrimitive(scope: Scope, primitive: UiNode): void {
    const values = Array.isArray(primitive.widgetsValues) ? primitive.widgetsValues : [];
    if (values.length === 0) return;
    const value = values[0];
    if (value && primitive.properties[REPLACE_PROPERTY] === true) {
      this.problem(execId(scope, primitive), primitive.type, `"${REPLACE_PROPERTY}" is on: the editor rewrites the value with live graph data, which cannot be reproduced; turn it off`);
      return;
    }
    const seen = new Set<string>();
    const feed = (fromId: string) => {
      if (seen.has(fromId)) return;
      seen.add(fromId);
      for (const link of scope.graph.links.values()) {
        if (link.originId !== fromId) continue;
        const target = scope.graph.byId.get(link.targetId);
        if (!target) continue;
        if (target.type === 'Reroute') {
          feed(target.id);
          continue;
        }
        const widget = target.inputs[link.targetSlot]?.widgetName;
        if (widget === undefined) continue;
        const targetId = execId(scope, target);
        let forNode = this.primitiveValues.get(targetId);
        if (!forNode) this.primitiveValues.set(targetId, (forNode = new Map()));
        forNode.set(widget, value);
      }
    };
    feed(primitive.id);
  }
}

/** Converts a UI-format workflow; the result's problems list everything that prevented an exact conversion. */
export function convertUiWorkflow(ui: Record<string, unknown>, info: ObjectInfo): Conversion {
  const converter = new Converter(ui, info);
  const workflow = converter.run();
  return { workflow, problems: converter.problemsInFileOrder(), notes: converter.notes };
}
