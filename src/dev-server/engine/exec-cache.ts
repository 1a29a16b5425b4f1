// ComfyUI's execution cache, as far as a client can see it: a node whose input signature (its
// class, its literal inputs, and the signatures of the nodes it links to) was part of the prompt
// the engine ran last is served from the cache and named in that run's `execution_cached`. The
// reference self-hosted server reads that message into `outputs_reused` (recordings/
// v2-proxy-lifecycle.json: jobs B and C, whose nodes 1-4 were unchanged, said true; the same
// workflow sent twice said true the second time, notes/reference-real). Only the flag follows the
// cache: this engine still runs every node; an unchanged output node writes its file again, under
// the name ComfyUI answers from its cache (this engine's counter starts at 1 for each job).
import type { Workflow } from '../contract.js';
import { isLink } from './graph.js';

export class ExecutionCache {
  private last = new Set<string>();

  /** The nodes of `order` the cache would serve, given the prompt that ran last. */
  served(workflow: Workflow, order: readonly string[]): string[] {
    const signatures = signaturesOf(workflow, order);
    return order.filter((id) => this.last.has(signatures.get(id)!));
  }

  /**
   * After a run: the cache holds what this prompt made. A run that did not finish keeps only what
   * it had found cached (ComfyUI drops the entries of nodes no longer in the prompt).
   */
  remember(workflow: Workflow, order: readonly string[], finished: boolean): void {
    const signatures = new Set(signaturesOf(workflow, order).values());
    this.last = finished ? signatures : new Set([...this.last].filter((s) => signatures.has(s)));
  }
}

function signaturesOf(workflow: Workflow, order: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  // `order` is a dependency order: every linked source is signed before the nodes reading it.
  for (const id of order) {
    const node = workflow[id]!;
    const inputs = Object.entries(node.inputs ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, value]) => [name, isLink(value) ? ['link', out.get(value[0]) ?? value[0], value[1]] : value]);
    out.set(id, JSON.stringify([node.class_type, inputs]));
  }
  return out;
}
