// `--set NODE.INPUT=VALUE`: one input of one node. VALUE is JSON when it parses as JSON, else a
// plain string; `@PATH` names a local file that is uploaded as an asset and `asset:ID` an asset
// already on the service: either goes in as the typed reference the job API takes in place of a
// file name (`{"__type": "core/ASSET", "info": {...}}`). A node id may itself hold dots, so the
// node is the longest dotted prefix that the workflow has.
import { UsageError } from '../../errors.js';
import { isLosslessNumber, JsonRefusedError, parseJsonExact } from '../../util/exact-json.js';
import { checkSetSyntax, SET_HINT } from './set-syntax.js';

export type InputValue = { kind: 'value'; value: unknown } | AssetInput;

/** An input that names an asset: a local file to upload (`@PATH`), or an asset's id (`asset:ID`). */
export type AssetInput = { kind: 'file'; path: string } | { kind: 'asset'; id: string };

const ASSET_PREFIX = 'asset:';

export interface InputAssignment {
  node: string;
  input: string;
  value: InputValue;
}

export function parseValue(text: string): InputValue {
  if (text.startsWith('@')) {
    const path = text.slice(1);
    if (path === '') throw new UsageError('--set: `@` must be followed by a file path', SET_HINT);
    return { kind: 'file', path };
  }
  if (text.startsWith(ASSET_PREFIX)) {
    const id = text.slice(ASSET_PREFIX.length);
    if (!/^[\x21-\x7e]+$/.test(id)) throw new UsageError('--set: `asset:` must be followed by an asset id', SET_HINT);
    return { kind: 'asset', id };
  }
  try {
    return { kind: 'value', value: parseJsonExact(text) };
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new UsageError(`--set: ${err.message}`, SET_HINT);
    return { kind: 'value', value: text };
  }
}

function knownNodes(workflow: Record<string, unknown>): string {
  const ids = Object.keys(workflow);
  const shown = ids.slice(0, 12).join(', ');
  return ids.length > 12 ? `${shown}, … (${ids.length} nodes)` : shown || '(none)';
}

export function parseSet(arg: string, workflow: Record<string, unknown>): InputAssignment {
  checkSetSyntax(arg);
  const eq = arg.indexOf('=');
  const target = arg.slice(0, eq);
  let node: string | undefined;
  for (let dot = target.lastIndexOf('.'); dot > 0; dot = target.lastIndexOf('.', dot - 1)) {
    if (Object.hasOwn(workflow, target.slice(0, dot))) {
      node = target.slice(0, dot);
      break;
    }
  }
  if (node === undefined) {
    const guess = target.slice(0, target.indexOf('.'));
    throw new UsageError(`--set ${JSON.stringify(arg)}: the workflow has no node ${JSON.stringify(guess)}`, `its nodes are: ${knownNodes(workflow)}`);
  }
  const input = target.slice(node.length + 1);
  if (input === '') throw new UsageError(`--set ${JSON.stringify(arg)}: the input name is empty`, SET_HINT);
  const entry = workflow[node];
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new UsageError(`--set ${JSON.stringify(arg)}: node ${JSON.stringify(node)} is not an object in the workflow`);
  }
  return { node, input, value: parseValue(arg.slice(eq + 1)) };
}

/** A deep copy of parsed JSON; structuredClone would turn each exact number into a plain object. */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (value === null || typeof value !== 'object' || isLosslessNumber(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyJson(v)]));
}

/**
 * A copy of the workflow with every assignment applied; `placeAsset` turns a file or an asset id
 * into the value that goes into the input (the typed asset reference).
 */
export async function applyAssignments(
  workflow: Record<string, unknown>,
  assignments: InputAssignment[],
  placeAsset: (input: AssetInput) => Promise<unknown>,
): Promise<Record<string, unknown>> {
  const out = copyJson(workflow) as Record<string, Record<string, unknown>>;
  for (const a of assignments) {
    const node = out[a.node]!;
    const inputs = typeof node.inputs === 'object' && node.inputs !== null && !Array.isArray(node.inputs) ? (node.inputs as Record<string, unknown>) : {};
    inputs[a.input] = a.value.kind === 'value' ? a.value.value : await placeAsset(a.value);
    node.inputs = inputs;
  }
  return out;
}
