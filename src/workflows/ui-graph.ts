// A workflow as the editor saves it (its "UI format"), read into lookups by node and link id.
// Nodes: `{id, type, mode, title?, inputs?: [{name, type, link, widget?}], outputs?: [{type, links}],
// widgets_values?, properties?}`; links: `[id, from_node, from_slot, to_node, to_slot, type]`
// (schema 0.4) or objects `{id, origin_id, origin_slot, target_id, target_slot, type}` (schema 1).
import { isRecord } from './node-defs.js';

export interface UiInput {
  name: string;
  type: unknown;
  link: string | null;
  /** Set when the input is a widget's socket (a converted widget). */
  widgetName?: string;
}

export interface UiNode {
  id: string;
  type: string;
  mode: number;
  title?: string;
  inputs: UiInput[];
  outputTypes: unknown[];
  outputLinks: string[][];
  widgetsValues: unknown;
  properties: Record<string, unknown>;
}

export interface UiLink {
  id: string;
  originId: string;
  originSlot: number;
  targetId: string;
  targetSlot: number;
}

export interface UiGraph {
  nodes: UiNode[];
  byId: Map<string, UiNode>;
  links: Map<string, UiLink>;
  /** Subgraph definitions (`definitions.subgraphs[]`) by id: nodes of these types are subgraph instances. */
  subgraphs: Map<string, Record<string, unknown>>;
  /** Group node types (`extra.groupNodes`, used as `workflow>NAME`). */
  groupNodeNames: Set<string>;
}

export const MODE_NEVER = 2;
/** The ids of a subgraph's input and output nodes in its links. */
export const SUBGRAPH_INPUT_ID = '-10';
export const SUBGRAPH_OUTPUT_ID = '-20';
export const MODE_BYPASS = 4;

function idOf(v: unknown): string | null {
  return typeof v === 'number' || typeof v === 'string' ? String(v) : null;
}

function slotOf(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : -1;
}

function readLink(raw: unknown): UiLink | null {
  if (Array.isArray(raw)) {
    const [id, originId, originSlot, targetId, targetSlot] = raw;
    const ids = [idOf(id), idOf(originId), idOf(targetId)];
    if (ids.some((x) => x === null)) return null;
    return { id: ids[0]!, originId: ids[1]!, originSlot: slotOf(originSlot), targetId: ids[2]!, targetSlot: slotOf(targetSlot) };
  }
  if (!isRecord(raw)) return null;
  const ids = [idOf(raw.id), idOf(raw.origin_id), idOf(raw.target_id)];
  if (ids.some((x) => x === null)) return null;
  return { id: ids[0]!, originId: ids[1]!, originSlot: slotOf(raw.origin_slot), targetId: ids[2]!, targetSlot: slotOf(raw.target_slot) };
}

function readInputs(raw: unknown): UiInput[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((entry) => {
    const e = isRecord(entry) ? entry : {};
    const widget = isRecord(e.widget) && typeof e.widget.name === 'string' ? e.widget.name : undefined;
    return { name: typeof e.name === 'string' ? e.name : '', type: e.type, link: idOf(e.link), ...(widget !== undefined ? { widgetName: widget } : {}) };
  });
}

function readNode(raw: Record<string, unknown>, id: string): UiNode {
  const outputs = Array.isArray(raw.outputs) ? raw.outputs.map((o) => (isRecord(o) ? o : {})) : [];
  return {
    id,
    type: typeof raw.type === 'string' ? raw.type : '',
    mode: typeof raw.mode === 'number' ? raw.mode : 0,
    ...(typeof raw.title === 'string' ? { title: raw.title } : {}),
    inputs: readInputs(raw.inputs),
    outputTypes: outputs.map((o) => o.type),
    outputLinks: outputs.map((o) => (Array.isArray(o.links) ? o.links.map(idOf).filter((l): l is string => l !== null) : [])),
    widgetsValues: raw.widgets_values,
    properties: isRecord(raw.properties) ? raw.properties : {},
  };
}

/** Reads the graph; `problems` receives what cannot be read at all (a node without an id, a malformed link). */
export function readUiGraph(workflow: Record<string, unknown>, problems: (nodeId: string, classType: string, what: string) => void): UiGraph {
  const nodes: UiNode[] = [];
  const byId = new Map<string, UiNode>();
  for (const [index, raw] of (Array.isArray(workflow.nodes) ? workflow.nodes : []).entries()) {
    const id = isRecord(raw) ? idOf(raw.id) : null;
    if (!isRecord(raw) || id === null) {
      problems(`#${index}`, '', `nodes[${index}] has no id`);
      continue;
    }
    if (byId.has(id)) problems(id, typeof raw.type === 'string' ? raw.type : '', `two nodes have the id ${id}`);
    const node = readNode(raw, id);
    nodes.push(node);
    byId.set(id, node);
  }
  const links = new Map<string, UiLink>();
  for (const [index, raw] of (Array.isArray(workflow.links) ? workflow.links : []).entries()) {
    const link = readLink(raw);
    if (link) links.set(link.id, link);
    else problems(`links[${index}]`, '', 'a link that is not [id, from_node, from_slot, to_node, to_slot, type]');
  }
  const definitions = isRecord(workflow.definitions) ? workflow.definitions : {};
  const subgraphs = Array.isArray(definitions.subgraphs) ? definitions.subgraphs : [];
  const extra = isRecord(workflow.extra) ? workflow.extra : {};
  return {
    nodes,
    byId,
    links,
    subgraphs: new Map(subgraphs.filter(isRecord).flatMap((s) => (idOf(s.id) === null ? [] : [[idOf(s.id)!, s] as const]))),
    groupNodeNames: new Set(isRecord(extra.groupNodes) ? Object.keys(extra.groupNodes) : []),
  };
}
