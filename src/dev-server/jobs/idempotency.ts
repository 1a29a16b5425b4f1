// Idempotency-Key bookkeeping: a key remembers the request it first came with and what it made.
import { createHash } from 'node:crypto';
import type { RequestContext } from '../contract.js';
import { bearerToken } from '../core/auth.js';

/** JSON with sorted keys, so two bodies that differ only in key order count as the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

export class IdempotencyStore {
  private readonly entries = new Map<string, { fingerprint: string; result: string }>();

  /** Keys are scoped by the caller's credential. */
  private scoped(ctx: RequestContext, key: string): string {
    return `${bearerToken(ctx) ?? ''}\n${key}`;
  }

  lookup(ctx: RequestContext, key: string, print: string): { kind: 'new' } | { kind: 'replay'; result: string } | { kind: 'conflict' } {
    const entry = this.entries.get(this.scoped(ctx, key));
    if (!entry) return { kind: 'new' };
    return entry.fingerprint === print ? { kind: 'replay', result: entry.result } : { kind: 'conflict' };
  }

  remember(ctx: RequestContext, key: string, print: string, result: string): void {
    this.entries.set(this.scoped(ctx, key), { fingerprint: print, result });
  }
}

export function idempotencyKey(ctx: RequestContext): string | null {
  const key = ctx.req.headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 ? key : null;
}

const stores = new WeakMap<object, Map<string, IdempotencyStore>>();

/** The server's store for one kind of operation ('jobs', 'assets'). */
export function idempotencyStore(ctx: RequestContext, kind: string): IdempotencyStore {
  let byKind = stores.get(ctx.state);
  if (!byKind) stores.set(ctx.state, (byKind = new Map()));
  let store = byKind.get(kind);
  if (!store) byKind.set(kind, (store = new IdempotencyStore()));
  return store;
}
