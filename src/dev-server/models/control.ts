// Test controls under /__dev/router/ (only with --faults, only from loopback), for the core's
// control-route dispatcher to forward to; returns false for a path it does not know:
//   POST /__dev/router/rebuild          rebuilds the catalog; every cursor becomes stale
//   POST /__dev/router/config {"deadline_ms": N}   sets the router deadline
//   POST /__dev/router/queue {"slots": N, "backlog": N, "timeout_ms": N, "poll_after_s": N, "retention_ms": N}
//                                        sets the queue's settings (any of them)
import type { RequestContext } from '../contract.js';
import { readJson, sendJson, sendLegacyError } from '../http-kit.js';
import { configureQueue, rebuildCatalog, modelsState, setModelsDeadline } from './state.js';
import type { QueueSettings } from './queue-book.js';

export const CONTROL_PREFIX = '/__dev/router/';
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export async function handleControl(ctx: RequestContext): Promise<boolean> {
  if (!ctx.state.options.faults) return false;
  if (!LOOPBACK.has(ctx.req.socket.remoteAddress ?? '')) {
    sendLegacyError(ctx, 403, 'forbidden', 'dev controls answer loopback callers only');
    return true;
  }
  if (ctx.req.method !== 'POST') {
    sendLegacyError(ctx, 405, 'method_not_allowed', 'dev controls take POST');
    return true;
  }
  const action = ctx.path.slice(CONTROL_PREFIX.length);
  if (action === 'rebuild') {
    sendJson(ctx, 200, { generation: rebuildCatalog(ctx.state) });
    return true;
  }
  if (action === 'config') {
    const body = (await readJson(ctx)) as { deadline_ms?: unknown } | null;
    const ms = body?.deadline_ms;
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms <= 0) {
      sendLegacyError(ctx, 400, 'invalid_request', 'deadline_ms must be a positive integer');
      return true;
    }
    setModelsDeadline(ctx.state, ms);
    sendJson(ctx, 200, { deadline_ms: modelsState(ctx.state).deadlineMs });
    return true;
  }
  if (action === 'queue') return queueControl(ctx);
  return false;
}

const QUEUE_FIELDS: Record<string, keyof QueueSettings> = { slots: 'slots', backlog: 'backlog', timeout_ms: 'timeoutMs', poll_after_s: 'pollAfterSeconds', retention_ms: 'retentionMs' };

async function queueControl(ctx: RequestContext): Promise<boolean> {
  const body = (await readJson(ctx)) as Record<string, unknown> | null;
  const settings: Partial<QueueSettings> = {};
  for (const [field, key] of Object.entries(QUEUE_FIELDS)) {
    const value = body?.[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < (key === 'slots' || key === 'pollAfterSeconds' ? 1 : 0)) {
      sendLegacyError(ctx, 400, 'invalid_request', `${field} must be a whole number${key === 'slots' || key === 'pollAfterSeconds' ? ' of at least 1' : ''}`);
      return true;
    }
    settings[key] = value;
  }
  const now = configureQueue(ctx.state, settings);
  sendJson(ctx, 200, { slots: now.slots, backlog: now.backlog, timeout_ms: now.timeoutMs, poll_after_s: now.pollAfterSeconds, retention_ms: now.retentionMs });
  return true;
}
