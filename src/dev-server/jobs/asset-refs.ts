// Typed asset references inside a v2 workflow (`{"__type": "core/ASSET", "info": {"id", ...}}`),
// resolved as the reference server does before its engine sees the graph: each becomes the file
// name of the asset `info.id` names (`info.id` decides; hash and file_path are hints). A malformed
// reference, or one naming no asset of the caller's, refuses the submit with `missing_asset`.
import type { NodeError, RequestContext } from '../contract.js';
import { claimsAssetReference, isAssetReference } from '../../protocol/jobs.js';

export interface ResolvedReferences {
  /** The workflow with every typed reference replaced by its file name (nodes without one kept as they are). */
  workflow: unknown;
  /** Each substituted file name and the asset it names. */
  inputAssets: Map<string, string>;
  /** Nodes holding references that do not resolve. */
  missing: Record<string, NodeError>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function resolveAssetReferences(ctx: RequestContext, workflow: unknown): ResolvedReferences {
  const inputAssets = new Map<string, string>();
  const missing: Record<string, NodeError> = Object.create(null) as Record<string, NodeError>;
  if (!isRecord(workflow)) return { workflow, inputAssets, missing };
  // Node ids are client text (`__proto__` included): a plain key, never the prototype.
  const resolved = Object.create(null) as Record<string, unknown>;
  let changed = false;
  for (const [id, node] of Object.entries(workflow)) {
    resolved[id] = node;
    if (!isRecord(node) || !isRecord(node.inputs)) continue;
    const inputs = node.inputs;
    if (!Object.values(inputs).some(claimsAssetReference)) continue;
    const substituted: Record<string, unknown> = { ...inputs };
    for (const [name, value] of Object.entries(inputs)) {
      if (!claimsAssetReference(value)) continue;
      const asset = isAssetReference(value) ? ctx.state.engine.findAsset(value.info.id) : undefined;
      if (!asset) {
        const reason = isAssetReference(value)
          ? { type: 'missing_asset', message: `Asset ${value.info.id} not found, or not yours`, details: name }
          : { type: 'missing_asset', message: 'Malformed asset reference: `info.id` must be a string', details: name };
        const entry = (missing[id] ??= { ...(typeof node.class_type === 'string' ? { class_type: node.class_type } : {}), errors: [] });
        entry.errors.push(reason);
        continue;
      }
      const fileName = asset.file_path ?? asset.id;
      inputAssets.set(fileName, asset.id);
      substituted[name] = fileName;
    }
    resolved[id] = { ...node, inputs: substituted };
    changed = true;
  }
  return { workflow: changed ? resolved : workflow, inputAssets, missing };
}
