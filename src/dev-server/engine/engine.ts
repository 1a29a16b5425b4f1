// Interim engine shell so the listeners can start; the executing engine replaces it.
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { DevState, Engine, EngineJob, NodeClassInfo, StoredOutput } from '../contract.js';

export class DevEngine implements Engine {
  readonly events = new EventEmitter();
  private readonly jobs = new Map<string, EngineJob>();
  constructor(private readonly state: DevState) {}
  submit(): EngineJob {
    throw new Error('engine not implemented yet');
  }
  get(id: string): EngineJob | undefined {
    return this.jobs.get(id);
  }
  cancel(id: string): EngineJob | undefined {
    return this.jobs.get(id);
  }
  interrupt(): void {}
  list(): EngineJob[] {
    return [...this.jobs.values()];
  }
  queuePosition(): number | null {
    return null;
  }
  objectInfo(): Record<string, NodeClassInfo> {
    return {};
  }
  openOutput(output: StoredOutput, range?: { start: number; end: number }): Readable {
    return this.state.blobs.open(output.blobHash, range);
  }
  findOutputByName(): StoredOutput | undefined {
    return undefined;
  }
  findAsset(id: string): StoredOutput | undefined {
    return this.state.blobs.getAsset(id);
  }
  close(): void {}
}
