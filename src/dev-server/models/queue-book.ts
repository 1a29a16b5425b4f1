// The router's queue (the published routes' queued delivery): requests wait in submission order
// and run `slots` at a time; each is IN_QUEUE, IN_PROGRESS, then COMPLETED with its outcome (a
// failure, a cancel or a queue timeout is COMPLETED with an error_type). A request that waits past
// the queue timeout never starts; a completed one is forgotten after the retention, its id then
// answering 410. A caller may leave at most `backlog` requests waiting. Time-based changes are
// applied when the queue is next looked at (sweep), so nothing keeps a timer.
import { randomUUID } from 'node:crypto';
import type { RouterQueueStatus } from '../../protocol/models.js';
import type { CatalogModel } from './catalog.js';
import type { ModelOutcome } from './stock/types.js';

export interface QueueSettings {
  /** Requests running at once. */
  slots: number;
  /** Requests one credential may leave waiting (queue_backlog_full above). */
  backlog: number;
  /** How long a request may wait before it is given up (queue_timeout). */
  timeoutMs: number;
  /** Retry-After of a status or result read while the request is not finished. */
  pollAfterSeconds: number;
  /** How long a completed request stays readable (410 after). */
  retentionMs: number;
}

export const DEFAULT_QUEUE_SETTINGS: QueueSettings = { slots: 2, backlog: 16, timeoutMs: 10 * 60 * 1000, pollAfterSeconds: 1, retentionMs: 60 * 60 * 1000 };

export interface QueuedRequest {
  id: string;
  credential: string;
  model: CatalogModel;
  status: RouterQueueStatus;
  submittedAt: number;
  completedAt?: number;
  outcome?: ModelOutcome;
  /** Ends the run of a cancelled request. */
  controller: AbortController;
  /** Starts the run; set by the submit route. */
  start: (signal: AbortSignal) => Promise<ModelOutcome>;
}

function failed(status: number, errorType: string, detail: string): ModelOutcome {
  return { kind: 'error', status, errorType, detail };
}

export class QueueBook {
  readonly settings: QueueSettings;
  private readonly requests = new Map<string, QueuedRequest>();
  private readonly gone = new Set<string>();
  private waiting: QueuedRequest[] = [];
  private running = 0;
  /** Idempotency-Key scope -> the request fingerprint and the request it made. */
  private readonly keys = new Map<string, { fingerprint: string; requestId: string }>();

  constructor(settings: Partial<QueueSettings> = {}) {
    this.settings = { ...DEFAULT_QUEUE_SETTINGS, ...settings };
  }

  keyTaken(scope: string): boolean {
    return this.keys.has(scope);
  }

  byKey(scope: string): { fingerprint: string; request: QueuedRequest | undefined } | undefined {
    const kept = this.keys.get(scope);
    return kept && { fingerprint: kept.fingerprint, request: this.requests.get(kept.requestId) };
  }

  waitingOf(credential: string): number {
    return this.waiting.filter((r) => r.credential === credential).length;
  }

  submit(credential: string, model: CatalogModel, start: QueuedRequest['start'], key?: { scope: string; fingerprint: string }): QueuedRequest {
    const request: QueuedRequest = { id: randomUUID(), credential, model, status: 'IN_QUEUE', submittedAt: Date.now(), controller: new AbortController(), start };
    this.requests.set(request.id, request);
    if (key) this.keys.set(key.scope, { fingerprint: key.fingerprint, requestId: request.id });
    this.waiting.push(request);
    this.pump();
    return request;
  }

  /** The model of a request still held (for the routes that name only the request). */
  modelOf(id: string): CatalogModel | undefined {
    return this.requests.get(id)?.model;
  }

  /** A request of this caller and model; 'gone' when it aged out; undefined when it names none. */
  find(id: string, credential: string, modelId: string): QueuedRequest | 'gone' | undefined {
    this.sweep();
    const request = this.requests.get(id);
    if (request && request.credential === credential && request.model.entry.id === modelId) return request;
    return this.gone.has(id) ? 'gone' : undefined;
  }

  position(request: QueuedRequest): number | undefined {
    const at = this.waiting.indexOf(request);
    return at < 0 ? undefined : at;
  }

  /** Asks for a cancel: false when the request had already completed. */
  cancel(request: QueuedRequest): boolean {
    if (request.status === 'COMPLETED') return false;
    if (request.status === 'IN_QUEUE') {
      this.waiting = this.waiting.filter((r) => r !== request);
      this.complete(request, failed(409, 'cancelled', 'The request was cancelled while it waited in the queue; it never ran and is not charged.'));
    } else {
      request.controller.abort(new Error('cancelled'));
    }
    return true;
  }

  /** Applies what time has changed: waits past the queue timeout end, old completions are forgotten. */
  sweep(now = Date.now()): void {
    for (const request of this.waiting.filter((r) => now - r.submittedAt > this.settings.timeoutMs)) {
      this.waiting = this.waiting.filter((r) => r !== request);
      this.complete(request, failed(504, 'queue_timeout', `The request waited ${this.settings.timeoutMs} ms in the queue without starting; it never ran and is not charged. Submit it again.`));
    }
    for (const request of this.requests.values()) {
      if (request.completedAt !== undefined && now - request.completedAt > this.settings.retentionMs) {
        this.requests.delete(request.id);
        this.gone.add(request.id);
      }
    }
  }

  /** Starts waiting requests while slots are free. */
  pump(): void {
    this.sweep();
    while (this.running < this.settings.slots && this.waiting.length > 0) {
      const request = this.waiting.shift()!;
      request.status = 'IN_PROGRESS';
      this.running++;
      void request
        .start(request.controller.signal)
        .catch((err: unknown): ModelOutcome =>
          request.controller.signal.aborted
            ? failed(409, 'cancelled', 'The request was cancelled while it ran; what the provider had done by then may still be charged.')
            : failed(500, 'internal_error', `The router failed while running the model: ${(err as Error).message}`),
        )
        .then((outcome) => {
          this.running--;
          // A run that finished although its cancel was asked for completed: the ask is not a guarantee.
          this.complete(request, outcome);
          this.pump();
        });
    }
  }

  private complete(request: QueuedRequest, outcome: ModelOutcome): void {
    request.status = 'COMPLETED';
    request.outcome = outcome;
    request.completedAt = Date.now();
  }

  /** Ends every run (the server is closing). */
  close(): void {
    for (const request of this.requests.values()) request.controller.abort(new Error('the dev server is closing'));
  }
}
