// What a node class is to the engine: its object_info definition and how it runs.
import type { NodeInputSpec, StoredOutput } from '../../contract.js';
import type { RgbImage } from '../image.js';

export interface InputSpec extends NodeInputSpec {
  /** The input names an uploaded asset (by id or file_path); the validator checks it exists. */
  asset?: boolean;
  tooltip?: string;
}

/** Where the node "is" in the engine's Python source, for tracebacks. */
export interface SourceFrame {
  file: string;
  line: number;
  func: string;
  code: string;
}

export interface NodeRunContext {
  nodeId: string;
  classType: string;
  extraData: Record<string, unknown>;
  /** The partner-node key the submit carried, under the name this server takes (core/names.ts). */
  partnerKey: unknown;
  /** The account's auth token the prompt carried (an engine's /api/prompt takes it; the job API v2 does not). */
  partnerToken: unknown;
  /** Reports step `step` of `steps`, shows a preview, waits one step time; throws when the job is stopped. */
  step(step: number, steps: number, preview?: RgbImage): Promise<void>;
  /** Waits `ms` (stoppable). */
  wait(ms: number): Promise<void>;
  stepMs: number;
  log(line: string): void;
  /** The next file number of this node (1, 2, ...). */
  nextCounter(): number;
  commitBytes(name: string, contentType: string, bytes: Buffer): Promise<StoredOutput>;
  commitSynthetic(name: string, contentType: string, size: number, seed: number): Promise<StoredOutput>;
  /** Reads an uploaded asset named by id or file_path; undefined when unknown, bytes null when too large to load. */
  readAsset(ref: string): Promise<{ asset: StoredOutput; bytes: Buffer | null } | undefined>;
}

/** A Python-style exception raised by a node. */
export class NodeRaised extends Error {
  constructor(
    readonly exceptionType: string,
    message: string,
    readonly frame: SourceFrame,
  ) {
    super(message);
  }
}

export type NodeValue = RgbImage | string | number | boolean;

export interface NodeClass {
  name: string;
  display_name: string;
  category: string;
  description: string;
  required: Record<string, InputSpec>;
  optional?: Record<string, InputSpec>;
  outputs: { type: string; name: string }[];
  /** Saving nodes commit outputs; a workflow needs at least one. */
  output_node: boolean;
  /** Share of the job's progress this node stands for (samplers: their steps). */
  weight?(inputs: Record<string, unknown>): number;
  run(inputs: Record<string, unknown>, ctx: NodeRunContext): Promise<NodeValue[]>;
}

export function padCounter(counter: number): string {
  return String(counter).padStart(5, '0');
}
