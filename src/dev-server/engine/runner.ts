// Executes one job's nodes in dependency order, keeping job.progress, outputs and logs current
// and emitting EngineEvents. The engine owns the state transitions around it.
import { Readable } from 'node:stream';
import type { DevState, EngineEvent, EngineJob, StoredOutput } from '../contract.js';
import { blake3OfStream } from '../assets/blob-store.js';
import { outputKind } from '../assets/media-type.js';
import { encodePng } from './png.js';
import { NODE_CLASSES } from './nodes/index.js';
import type { NodeRunContext, NodeValue } from './nodes/types.js';
import { isLink } from './graph.js';
import { syntheticStream } from './synthetic.js';
import { sleep } from '../../util/sleep.js';
import { partnerKeyOf } from '../core/names.js';

/** Largest asset LoadImage reads into memory. */
const MAX_IMAGE_BYTES = 64 * 1024 * 1024;

export type StopReason = 'cancel' | 'expire' | 'close';

export class Stopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`job stopped: ${reason}`);
  }
}

export interface RunControl {
  stop: StopReason | null;
  /** Aborted for stops that do not wait for the next step boundary (expiry, shutdown). */
  abort: AbortController;
}

export interface RunHooks {
  state: DevState;
  control: RunControl;
  emit(event: EngineEvent): void;
  registerOutput(output: StoredOutput, synthetic?: { seed: number; size: number }): void;
  /** The id a new output gets (a UUID, or the reference server's opaque token on self-hosted). */
  outputId(fields: { index: number; name: string; subfolder: string }): string;
  findAsset(ref: string): StoredOutput | undefined;
  openAsset(asset: StoredOutput): Readable;
}

export interface Plan {
  order: string[];
  weights: Map<string, number>;
}

export function planJob(job: EngineJob, order: string[]): Plan {
  const weights = new Map<string, number>();
  for (const id of order) {
    const node = job.workflow[id]!;
    weights.set(id, Math.max(1, NODE_CLASSES.get(node.class_type)?.weight?.(node.inputs) ?? 1));
  }
  return { order, weights };
}

async function readAll(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function runJob(job: EngineJob, plan: Plan, hooks: RunHooks): Promise<void> {
  const { state, control } = hooks;
  const total = [...plan.weights.values()].reduce((a, b) => a + b, 0);
  const values = new Map<string, NodeValue[]>();
  let doneWeight = 0;
  let nodesDone = 0;

  const checkpoint = (): void => {
    if (control.stop) throw new Stopped(control.stop);
  };
  const wait = async (ms: number): Promise<void> => {
    try {
      await sleep(ms, control.abort.signal);
    } catch {
      throw new Stopped(control.stop ?? 'close');
    }
    checkpoint();
  };
  const log = (line: string): void => {
    job.logs.push(line);
    hooks.emit({ type: 'log', line });
  };
  const setProgress = (fields: Partial<NonNullable<EngineJob['progress']>>, partial = 0): void => {
    job.progress = {
      ...job.progress!,
      ...fields,
      value: Math.min(1, Math.round(((doneWeight + partial) / total) * 10000) / 10000),
      nodes_done: nodesDone,
      nodes_total: plan.order.length,
    };
  };

  for (const id of plan.order) {
    checkpoint();
    const node = job.workflow[id]!;
    const nodeClass = NODE_CLASSES.get(node.class_type)!;
    const inputs: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries({ ...nodeClass.optional, ...nodeClass.required })) {
      const given = node.inputs[name];
      inputs[name] = isLink(given) ? values.get(given[0])![given[1]] : (given ?? spec.default);
    }
    setProgress({ current_node: id, current_node_class: node.class_type, step: null, steps: null, message: `running ${node.class_type}` });
    hooks.emit({ type: 'node_start', node: id, class_type: node.class_type });
    log(`executing node ${id} (${node.class_type})`);
    const committed: StoredOutput[] = [];
    let counter = 0;

    const commit = (output: Omit<StoredOutput, 'id' | 'node_id' | 'job_id' | 'created_at' | 'hashVisibleAt' | 'subfolder' | 'folderType' | 'type' | 'file_path'>, synthetic?: { seed: number; size: number }): StoredOutput => {
      const slash = output.name.lastIndexOf('/');
      const now = Date.now();
      const subfolder = slash >= 0 ? output.name.slice(0, slash) : '';
      const stored: StoredOutput = {
        ...output,
        id: hooks.outputId({ index: job.outputs.length, name: output.name, subfolder }),
        node_id: id,
        type: outputKind(output.content_type, output.name),
        job_id: job.id,
        file_path: output.name,
        created_at: new Date(now).toISOString(),
        hashVisibleAt: now + state.options.hashDelayMs,
        subfolder,
        folderType: 'output',
      };
      job.outputs.push(stored);
      committed.push(stored);
      hooks.registerOutput(stored, synthetic);
      hooks.emit({ type: 'output', node: id, output: stored });
      log(`saved ${stored.name} (${stored.size_bytes} bytes)`);
      return stored;
    };

    const ctx: NodeRunContext = {
      nodeId: id,
      classType: node.class_type,
      extraData: job.extraData,
      partnerKey: partnerKeyOf(state, job.extraData),
      partnerToken: partnerKeyOf(state, job.extraData, 'authToken'),
      stepMs: state.options.stepMs,
      wait,
      log,
      nextCounter: () => ++counter,
      async step(step, steps, preview) {
        await wait(state.options.stepMs);
        setProgress({ step, steps, message: `${node.class_type} step ${step}/${steps}` }, (plan.weights.get(id)! * step) / steps);
        hooks.emit({ type: 'progress', node: id, value: step, max: steps });
        hooks.emit({ type: 'text', node: id, text: `step ${step}/${steps}` });
        if (preview) hooks.emit({ type: 'preview', node: id, format: 'png', bytes: encodePng(preview, { stored: true }) });
      },
      async commitBytes(name, contentType, bytes) {
        const { hash, size } = await state.blobs.put(Readable.from([bytes]));
        checkpoint();
        return commit({ name, content_type: contentType, size_bytes: size, blobHash: hash });
      },
      async commitSynthetic(name, contentType, size, seed) {
        const { hash } = await blake3OfStream(syntheticStream(seed, size));
        checkpoint();
        return commit({ name, content_type: contentType, size_bytes: size, blobHash: hash }, { seed, size });
      },
      async readAsset(ref) {
        const asset = hooks.findAsset(ref);
        if (!asset) return undefined;
        if (asset.size_bytes > MAX_IMAGE_BYTES) return { asset, bytes: null };
        return { asset, bytes: await readAll(hooks.openAsset(asset), MAX_IMAGE_BYTES) };
      },
    };

    const result = await nodeClass.run(inputs, ctx);
    // Every node costs at least one step time, so queued and running states are observable.
    if (!nodeClass.weight) await wait(state.options.stepMs);
    values.set(id, result);
    doneWeight += plan.weights.get(id)!;
    nodesDone += 1;
    setProgress({ message: `finished ${node.class_type}` });
    hooks.emit({ type: 'node_done', node: id, outputs: committed });
  }
}
