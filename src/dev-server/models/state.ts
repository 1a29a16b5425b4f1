// Per-server router state, kept beside the DevState (the contract has no router field, and the
// router's bookkeeping is its own business).
import { randomBytes } from 'node:crypto';
import type { DevState } from '../contract.js';
import { buildCatalog, type Catalog } from './catalog.js';
import type { SchemaDocument } from './docs.js';
import { IdempotencyStore } from './idempotency.js';
import type { CredentialUsage } from './limits.js';
import { QueueBook, type QueueSettings } from './queue-book.js';

export const DEFAULT_ROUTER_DEADLINE_MS = 1000;

export interface ModelsState {
  catalog: Catalog;
  cursorKey: Buffer;
  /** How long the router holds a call before answering 504 deadline_exceeded. */
  deadlineMs: number;
  docs: Map<string, SchemaDocument>;
  usage: Map<string, CredentialUsage>;
  /** Per-model memory the dev models keep between calls. */
  memory: Map<string, Map<string, unknown>>;
  idempotency: IdempotencyStore;
  /** Aborted by closeModels: ends every model's pending wait. */
  shutdown: AbortController;
  /** Queued delivery (the published routes). */
  queue: QueueBook;
}

const states = new WeakMap<DevState, ModelsState>();

function configuredDeadline(dev: DevState): number {
  const value = (dev.options as { routerDeadlineMs?: unknown }).routerDeadlineMs;
  return typeof value === 'number' && value > 0 ? value : DEFAULT_ROUTER_DEADLINE_MS;
}

export function modelsState(dev: DevState): ModelsState {
  let state = states.get(dev);
  if (!state) {
    state = {
      catalog: buildCatalog(dev.options.catalogSize, 1),
      cursorKey: randomBytes(32),
      deadlineMs: configuredDeadline(dev),
      docs: new Map(),
      usage: new Map(),
      memory: new Map(),
      idempotency: new IdempotencyStore(),
      shutdown: new AbortController(),
      queue: new QueueBook({ retentionMs: dev.options.routerRetentionMs }),
    };
    states.set(dev, state);
  }
  return state;
}

/** Ends the router's pending model calls, so no model timer outlives the server. */
export function closeModels(dev: DevState): void {
  states.get(dev)?.shutdown.abort(new Error('the dev server is closing'));
  states.get(dev)?.queue.close();
}

/** Sets the queue's slots, backlog, timeout, poll pace or retention (tests make them small). */
export function configureQueue(dev: DevState, settings: Partial<QueueSettings>): QueueSettings {
  const queue = modelsState(dev).queue;
  Object.assign(queue.settings, settings);
  queue.pump();
  return { ...queue.settings };
}

/** Rebuilds the catalog in a new order: every cursor handed out so far becomes stale. */
export function rebuildCatalog(dev: DevState): number {
  const state = modelsState(dev);
  state.catalog = buildCatalog(dev.options.catalogSize, state.catalog.generation + 1);
  return state.catalog.generation;
}

/** Sets the router's own deadline (tests shorten it). */
export function setModelsDeadline(dev: DevState, ms: number): void {
  modelsState(dev).deadlineMs = ms;
}

export function modelMemory(state: ModelsState, modelId: string): Map<string, unknown> {
  let memory = state.memory.get(modelId);
  if (!memory) {
    memory = new Map();
    state.memory.set(modelId, memory);
  }
  return memory;
}
