// The dev engine: takes API-format workflows, validates them against object_info, queues them
// over `slots` runners, applies retention, and keeps every output readable.
import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import {
  SubmitRefused,
  WorkflowRejected,
  type DevState,
  type Engine,
  type EngineEvent,
  type EngineJob,
  type EngineStatus,
  type NodeClassInfo,
  type NodeError,
  type StoredOutput,
  type SubmitExtras,
  type Workflow,
} from '../contract.js';
import { KNOWN_NODE_PACKS, NODE_CLASSES } from './nodes/index.js';
import { INSUFFICIENT_KEY_PREFIX } from './nodes/partner-call.js';
import { partnerKeyOf } from '../core/names.js';
import { NodeRaised } from './nodes/types.js';
import { objectInfoOf } from './object-info.js';
import { opaqueOutputId } from './output-id.js';
import { planJob, runJob, Stopped, type Plan, type RunControl } from './runner.js';
import { summarizeNodeErrors } from './summary.js';
import { syntheticStream } from './synthetic.js';
import { errorCodeOf, formatTraceback } from './traceback.js';
import { ExecutionCache } from './exec-cache.js';
import { isUiFormat, validateWorkflow, type ValidationReport } from './validate.js';

export const TERMINAL: ReadonlySet<EngineStatus> = new Set(['succeeded', 'failed', 'canceled', 'expired']);

type Dispatch = { plan: Plan } | { refusal: NonNullable<EngineJob['error']> };

function onlyReasons(nodeErrors: Record<string, NodeError>, type: string): Record<string, NodeError> {
  const picked = Object.create(null) as Record<string, NodeError>; // node ids may be `__proto__`
  for (const [id, error] of Object.entries(nodeErrors)) {
    const errors = error.errors.filter((r) => r.type === type);
    if (errors.length > 0) picked[id] = { ...error, errors };
  }
  return picked;
}

export class DevEngine implements Engine {
  readonly events = new EventEmitter();
  private readonly jobs = new Map<string, EngineJob>();
  private readonly dispatches = new Map<string, Dispatch>();
  private queue: string[] = [];
  private readonly running = new Map<string, RunControl>();
  private readonly outputs = new Map<string, StoredOutput>();
  private readonly synthetic = new Map<string, { seed: number; size: number }>();
  /** Expired jobs stay readable as `expired` for one more retention period. */
  private readonly goneAt = new Map<string, number>();
  private readonly info = objectInfoOf(NODE_CLASSES.values());
  private readonly sweeper: NodeJS.Timeout;
  private readonly outputKey = randomBytes(32);
  private readonly cache = new ExecutionCache();

  constructor(private readonly state: DevState) {
    this.events.setMaxListeners(0);
    const every = Math.min(1000, Math.max(10, Math.floor(state.options.retentionMs / 4)));
    this.sweeper = setInterval(() => this.list(), every);
    this.sweeper.unref();
  }

  // ---- submission ------------------------------------------------------------------------

  submit(workflow: unknown, extraData: Record<string, unknown> | undefined, via: 'v2' | 'v1', extras: SubmitExtras = {}): EngineJob {
    const { deploymentId } = extras;
    const inputAssets = extras.inputAssets ?? new Map<string, string>();
    if (typeof workflow !== 'object' || workflow === null || Array.isArray(workflow)) {
      throw new WorkflowRejected('invalid_workflow', 'the workflow must be a JSON object keyed by node id (API format)');
    }
    if (isUiFormat(workflow)) {
      throw new WorkflowRejected('workflow_format_ui', 'this is a UI-format workflow (nodes and links arrays); export it in API format');
    }
    if (Object.keys(workflow).length === 0) throw new WorkflowRejected('invalid_workflow', 'the workflow has no nodes');
    const report = validateWorkflow(workflow as Record<string, unknown>, this.info, {
      fileExists: (name) => this.findInputFile(name, inputAssets) !== undefined,
      knownPacks: KNOWN_NODE_PACKS,
    });
    const dispatch = deploymentId === undefined ? this.checkAtSubmit(report) : this.checkAtGateway(report);
    const extra = extraData ?? {};
    const partnerKey = partnerKeyOf(this.state, extra);
    const usesPartner = Object.values(workflow as Workflow).some((n) => n?.class_type === 'PartnerCall');
    if (usesPartner && typeof partnerKey === 'string' && partnerKey.startsWith(INSUFFICIENT_KEY_PREFIX)) {
      throw new SubmitRefused('insufficient_credits', 402, 'the partner-node account has insufficient credits for this workflow');
    }
    if (this.queue.length >= this.state.options.maxQueue) {
      throw new SubmitRefused('queue_full', 429, `the queue is full (${this.state.options.maxQueue} jobs waiting)`, this.state.options.queueFullRetryAfter);
    }
    const assetIds = this.assetsRead(workflow as Workflow, inputAssets);
    return this.enqueue(workflow as Workflow, extra, via, dispatch, { ...extras, inputAssets, assetIds });
  }

  /** The client's id unless a job that has not ended holds it; an ended holder gives way (an engine keeps the last run), its outputs stay. */
  private freeId(promptId: string | undefined): string {
    const holder = promptId === undefined ? undefined : this.jobs.get(promptId);
    if (promptId === undefined || (holder && !TERMINAL.has(holder.status))) return randomUUID();
    this.dispatches.delete(promptId);
    this.goneAt.delete(promptId);
    return promptId;
  }

  /** The assets a workflow's file inputs name (held while the job is active). */
  private assetsRead(workflow: Workflow, inputAssets: Map<string, string>): Set<string> {
    const ids = new Set<string>();
    for (const node of Object.values(workflow)) {
      const nodeClass = NODE_CLASSES.get(node.class_type);
      for (const [name, spec] of Object.entries(nodeClass?.required ?? {})) {
        const value = node.inputs[name];
        const asset = spec.asset && typeof value === 'string' ? this.findInputFile(value, inputAssets) : undefined;
        if (asset) ids.add(asset.id);
      }
    }
    return ids;
  }

  /** Hosted and self-hosted: the engine validates everything before accepting. */
  private checkAtSubmit(report: ValidationReport): Dispatch {
    if (Object.keys(report.nodeErrors).length > 0) {
      throw new WorkflowRejected('invalid_workflow', `workflow refused: ${summarizeNodeErrors(report.nodeErrors)}`, report.nodeErrors, report.unknownClasses);
    }
    if (!report.hasOutputNode) throw new WorkflowRejected('invalid_workflow', this.noOutputMessage());
    return { plan: { order: report.order, weights: new Map() } };
  }

  /**
   * Serverless: the gateway only knows which classes the build contains (typed asset references
   * are resolved before the engine is asked); everything else is found by the engine after
   * dispatch, and the job fails with node_errors.
   */
  private checkAtGateway(report: ValidationReport): Dispatch {
    const unknown = onlyReasons(report.nodeErrors, 'unknown_node_class');
    if (Object.keys(unknown).length > 0) {
      throw new WorkflowRejected('invalid_workflow', `workflow refused: ${summarizeNodeErrors(unknown)}`, unknown, report.unknownClasses);
    }
    if (Object.keys(report.nodeErrors).length > 0) {
      return {
        refusal: {
          code: 'invalid_workflow',
          message: `the engine refused the workflow: ${summarizeNodeErrors(report.nodeErrors)}`,
          node_errors: report.nodeErrors,
          exception_type: 'ValidationError',
        },
      };
    }
    if (!report.hasOutputNode) return { refusal: { code: 'invalid_workflow', message: this.noOutputMessage(), exception_type: 'ValidationError' } };
    return { plan: { order: report.order, weights: new Map() } };
  }

  private noOutputMessage(): string {
    const savers = [...NODE_CLASSES.values()].filter((c) => c.output_node).map((c) => c.name);
    return `the workflow has no output node; add one of ${savers.join(', ')}`;
  }

  private enqueue(
    workflow: Workflow,
    extraData: Record<string, unknown>,
    via: 'v2' | 'v1',
    dispatch: Dispatch,
    extras: SubmitExtras & { inputAssets: Map<string, string>; assetIds: Set<string> },
  ): EngineJob {
    const { deploymentId } = extras;
    const now = Date.now();
    const job: EngineJob = {
      id: this.freeId(extras.promptId),
      status: 'queued',
      workflow,
      extraData,
      created_at: new Date(now).toISOString(),
      started_at: null,
      completed_at: null,
      expires_at: new Date(now + this.state.options.retentionMs).toISOString(),
      progress: null,
      outputs: [],
      error: null,
      metrics: { queue_ms: null, execution_ms: null, output_bytes: null },
      logs: [],
      latestPreview: null,
      assetIds: extras.assetIds,
      inputAssets: extras.inputAssets,
      ...(extras.metadata !== undefined ? { metadata: extras.metadata } : {}),
      ...(extras.priority !== undefined ? { priority: extras.priority } : {}),
      via,
      ...(deploymentId !== undefined ? { deployment_id: deploymentId, release_id: this.state.options.releaseId } : {}),
    };
    if ('plan' in dispatch) dispatch.plan = planJob(job, dispatch.plan.order);
    this.jobs.set(job.id, job);
    this.dispatches.set(job.id, dispatch);
    this.queue.push(job.id);
    this.emit(job, { type: 'queued', queue_position: this.queue.length - 1 });
    this.log(job, `got prompt ${job.id}`);
    setImmediate(() => this.pump());
    return job;
  }

  // ---- running ---------------------------------------------------------------------------

  private emit(job: EngineJob, event: EngineEvent): void {
    if (event.type === 'preview') job.latestPreview = { node: event.node, format: event.format, bytes: event.bytes };
    this.events.emit('job', job.id, event);
  }

  private setStatus(job: EngineJob, status: EngineStatus): void {
    job.status = status;
    if (TERMINAL.has(status)) job.latestPreview = null;
    /** Every status change, for listeners that show the status (the v2 event stream). */
    this.events.emit('status', job.id, status);
  }

  private log(job: EngineJob, line: string): void {
    job.logs.push(line);
    this.emit(job, { type: 'log', line });
  }

  private pump(): void {
    let moved = false;
    while (this.running.size < this.state.options.slots && this.queue.length > 0) {
      const id = this.queue.shift()!;
      moved = true;
      void this.start(this.jobs.get(id)!);
    }
    if (moved) {
      this.queue.forEach((id, position) => this.emit(this.jobs.get(id)!, { type: 'queued', queue_position: position }));
    }
  }

  private async start(job: EngineJob): Promise<void> {
    const control: RunControl = { stop: null, abort: new AbortController() };
    this.running.set(job.id, control);
    const started = Date.now();
    job.started_at = new Date(started).toISOString();
    job.metrics.queue_ms = started - Date.parse(job.created_at);
    const dispatch = this.dispatches.get(job.id)!;
    const nodesTotal = 'plan' in dispatch ? dispatch.plan.order.length : 0;
    job.progress = { value: 0, nodes_done: 0, nodes_total: nodesTotal, current_node: null, current_node_class: null, step: null, steps: null, message: 'started' };
    this.setStatus(job, 'running');
    this.emit(job, { type: 'started' });
    this.emit(job, { type: 'cached', nodes: [] });
    // Only the self-hosted imitation keeps ComfyUI's cache: it is what its `outputs_reused` reads.
    const cachedOrder = 'plan' in dispatch && this.state.options.deployment === 'self-hosted' ? dispatch.plan.order : undefined;
    if (cachedOrder) job.cachedNodes = this.cache.served(job.workflow, cachedOrder);
    try {
      if ('refusal' in dispatch) {
        this.fail(job, dispatch.refusal, 'ValidationError', null);
      } else {
        await runJob(job, dispatch.plan, {
          state: this.state,
          control,
          emit: (event) => this.emit(job, event),
          registerOutput: (output, synthetic) => {
            this.outputs.set(output.id, output);
            if (synthetic) this.synthetic.set(output.id, synthetic);
          },
          findAsset: (ref) => this.findInputFile(ref, job.inputAssets),
          outputId: (fields) =>
            this.state.options.deployment === 'self-hosted' ? opaqueOutputId(this.outputKey, { job: job.id, ...fields }) : randomUUID(),
          openAsset: (asset) => this.openOutput(asset),
        });
        this.succeed(job);
      }
    } catch (err) {
      this.settleError(job, err);
    } finally {
      if (cachedOrder) this.cache.remember(job.workflow, cachedOrder, job.status === 'succeeded');
      this.running.delete(job.id);
      this.pump();
    }
  }

  private finishMetrics(job: EngineJob): void {
    const now = Date.now();
    job.completed_at = new Date(now).toISOString();
    if (job.started_at) job.metrics.execution_ms = now - Date.parse(job.started_at);
    job.metrics.output_bytes = job.outputs.reduce((sum, o) => sum + o.size_bytes, 0);
  }

  private succeed(job: EngineJob): void {
    this.finishMetrics(job);
    const total = job.progress?.nodes_total ?? 0;
    job.progress = { value: 1, nodes_done: total, nodes_total: total, current_node: null, current_node_class: null, step: null, steps: null, message: 'finished' };
    this.log(job, `Prompt executed in ${((job.metrics.execution_ms ?? 0) / 1000).toFixed(2)} seconds`);
    this.setStatus(job, 'succeeded');
    this.emit(job, { type: 'succeeded' });
  }

  private fail(job: EngineJob, error: NonNullable<EngineJob['error']>, exceptionType: string, node: string | null): void {
    this.finishMetrics(job);
    job.error = error;
    if (job.progress) job.progress = { ...job.progress, message: `failed: ${error.message}` };
    this.log(job, error.traceback ?? `${exceptionType}: ${error.message}`);
    this.setStatus(job, 'failed');
    this.emit(job, { type: 'failed', exception_type: exceptionType, message: error.message, traceback: error.traceback ?? '', node });
  }

  private settleError(job: EngineJob, err: unknown): void {
    if (err instanceof Stopped) {
      if (err.reason === 'cancel') {
        this.finishMetrics(job);
        if (job.progress) job.progress = { ...job.progress, message: 'canceled' };
        this.log(job, 'Processing interrupted');
        this.setStatus(job, 'canceled');
        this.emit(job, { type: 'canceled' });
      }
      return; // expiry already settled the job; shutdown leaves it as it was
    }
    const nodeId = job.progress?.current_node ?? null;
    const classType = job.progress?.current_node_class ?? null;
    if (err instanceof NodeRaised) {
      const traceback = formatTraceback(err.exceptionType, err.message, err.frame);
      this.fail(job, { code: errorCodeOf(err.exceptionType), message: err.message, node_id: nodeId, class_type: classType, traceback, exception_type: err.exceptionType }, err.exceptionType, nodeId);
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    this.fail(job, { code: 'internal_error', message, node_id: nodeId, class_type: classType, traceback: (err as Error)?.stack ?? null, exception_type: 'RuntimeError' }, 'RuntimeError', nodeId);
  }

  // ---- control ---------------------------------------------------------------------------

  cancel(id: string): EngineJob | undefined {
    const job = this.get(id);
    if (!job) return undefined;
    if (job.status === 'queued') {
      this.queue = this.queue.filter((q) => q !== id);
      this.finishMetrics(job);
      this.log(job, 'removed from the queue');
      this.setStatus(job, 'canceled');
      this.emit(job, { type: 'canceled' });
      this.pump();
    } else if (job.status === 'running') {
      // The runner stops at its next step boundary, like an interrupt on a GPU worker.
      this.running.get(id)!.stop = 'cancel';
      this.setStatus(job, 'canceling');
    }
    return job;
  }

  interrupt(): void {
    for (const id of [...this.running.keys()]) this.cancel(id);
  }

  /** Moves a job past its deadline: unfinished ones expire, finished ones are forgotten. */
  private applyRetention(job: EngineJob, now: number): void {
    if (now < Date.parse(job.expires_at)) return;
    if (job.status === 'expired') {
      if (now >= (this.goneAt.get(job.id) ?? 0)) this.forget(job);
      return;
    }
    if (TERMINAL.has(job.status)) {
      this.forget(job);
      return;
    }
    this.queue = this.queue.filter((q) => q !== job.id);
    const control = this.running.get(job.id);
    if (control) {
      control.stop = 'expire';
      control.abort.abort(new Stopped('expire'));
    }
    this.finishMetrics(job);
    this.goneAt.set(job.id, now + this.state.options.retentionMs);
    this.log(job, 'job passed its retention deadline');
    this.setStatus(job, 'expired');
    this.emit(job, { type: 'expired' });
  }

  private forget(job: EngineJob): void {
    this.jobs.delete(job.id);
    this.dispatches.delete(job.id);
    this.goneAt.delete(job.id);
    for (const output of job.outputs) {
      this.outputs.delete(output.id);
      this.synthetic.delete(output.id);
    }
  }

  // ---- reading ---------------------------------------------------------------------------

  get(id: string): EngineJob | undefined {
    const job = this.jobs.get(id);
    if (job) this.applyRetention(job, Date.now());
    return this.jobs.get(id);
  }

  list(): EngineJob[] {
    const now = Date.now();
    for (const job of [...this.jobs.values()]) this.applyRetention(job, now);
    return [...this.jobs.values()];
  }

  activeCount(): number {
    return this.queue.length + this.running.size;
  }

  queuePosition(id: string): number | null {
    const index = this.queue.indexOf(id);
    return index < 0 ? null : index;
  }

  objectInfo(): Record<string, NodeClassInfo> {
    return structuredClone(this.info);
  }

  openOutput(output: StoredOutput, range?: { start: number; end: number }): Readable {
    const synthetic = this.synthetic.get(output.id);
    if (synthetic) return syntheticStream(synthetic.seed, synthetic.size, range);
    return this.state.blobs.open(output.blobHash, range);
  }

  findOutputByName(filename: string, subfolder: string, folderType: string): StoredOutput | undefined {
    const jobs = this.list();
    for (let j = jobs.length - 1; j >= 0; j--) {
      const outputs = jobs[j]!.outputs;
      for (let i = outputs.length - 1; i >= 0; i--) {
        const o = outputs[i]!;
        if (o.name.split('/').pop() === filename && o.subfolder === subfolder && o.folderType === folderType) return o;
      }
    }
    return undefined;
  }

  findAsset(id: string): StoredOutput | undefined {
    const output = this.outputs.get(id);
    if (output) {
      const job = output.job_id ? this.get(output.job_id) : undefined;
      return job ? output : undefined;
    }
    return this.state.blobs.getAsset(id);
  }

  /**
   * A file name as the engine reads it from its input folder: one the v2 submit put in place of
   * a typed reference (that asset exactly), or an uploaded file's path. Never an asset id.
   */
  private findInputFile(name: string, inputAssets: Map<string, string>): StoredOutput | undefined {
    const named = inputAssets.get(name);
    return (named !== undefined ? this.findAsset(named) : undefined) ?? this.state.blobs.findAssetByPath(name);
  }

  assetInUse(id: string): boolean {
    for (const job of this.jobs.values()) {
      if (!TERMINAL.has(job.status) && job.assetIds.has(id)) return true;
    }
    return false;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.queue = [];
    for (const control of this.running.values()) {
      control.stop = 'close';
      control.abort.abort(new Stopped('close'));
    }
  }
}
