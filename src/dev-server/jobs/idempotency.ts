// Single-use Idempotency-Keys (published contract): a key is claimed when its request arrives; any
// later request with it, same body or not, is refused and never executed; the handler releases
// the key when its request definitively made nothing, and keeps it when the outcome is unknown.
// Keys expire after `idempotencyTtlMs`. There is no replay of an earlier answer.
import type { RequestContext } from '../contract.js';
import { bearerToken } from '../core/auth.js';
import { sendJobsError } from '../http-kit.js';

/** The reference server's refusal, word for word: it never guesses that the body differed. */
export const KEY_REUSE_MESSAGE =
  'This Idempotency-Key has already been used. Keys are single-use; poll or list your jobs instead of resubmitting with the same key.';

/** The longest key the reference server takes. */
const MAX_KEY_CHARS = 255;

export class IdempotencyStore {
  /** Scoped key -> epoch ms at which the claim lapses. A Map keeps claim order, which is expiry order. */
  private readonly claims = new Map<string, number>();

  constructor(private readonly ttlMs: () => number) {}

  /** Keys are scoped by the caller's credential. */
  private scoped(ctx: RequestContext, key: string): string {
    return `${bearerToken(ctx) ?? ''}\n${key}`;
  }

  private sweep(now: number): void {
    for (const [key, lapses] of this.claims) {
      if (lapses > now) break;
      this.claims.delete(key);
    }
  }

  /** Claims the key; false when it is already claimed (the request must be refused). */
  claim(ctx: RequestContext, key: string): boolean {
    const now = Date.now();
    this.sweep(now);
    const scoped = this.scoped(ctx, key);
    if ((this.claims.get(scoped) ?? 0) > now) return false;
    this.claims.delete(scoped); // re-inserted at the end: claim order stays expiry order
    this.claims.set(scoped, now + this.ttlMs());
    return true;
  }

  /** Frees a key whose request definitively made nothing, so a retry may use it. */
  release(ctx: RequestContext, key: string): void {
    this.claims.delete(this.scoped(ctx, key));
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
  const state = ctx.state;
  if (!store) byKind.set(kind, (store = new IdempotencyStore(() => state.options.idempotencyTtlMs)));
  return store;
}

/** A request's claim on its key, if it carried one. */
export interface KeyClaim {
  /** The request definitively made nothing: a retry may use the key. */
  release(): void;
}

/**
 * Claims the request's Idempotency-Key for `kind`. Answers the reuse refusal and returns null
 * when the key was claimed before; otherwise returns the claim (a no-op one without a key).
 */
export function claimKey(ctx: RequestContext, kind: 'jobs' | 'assets'): KeyClaim | null {
  const selfHosted = ctx.state.options.deployment === 'self-hosted';
  // The reference server ignores the key on uploads (one record per blob makes them idempotent)
  // and refuses an empty or over-long one on submits before reading the body.
  if (selfHosted && kind === 'assets') return { release: () => undefined };
  const raw = ctx.req.headers['idempotency-key'];
  if (selfHosted && typeof raw === 'string' && (raw.length === 0 || raw.length > MAX_KEY_CHARS)) {
    sendJobsError(ctx, 400, 'invalid_request', `Idempotency-Key must be 1-${MAX_KEY_CHARS} characters.`, null);
    return null;
  }
  const key = idempotencyKey(ctx);
  if (key === null) return { release: () => undefined };
  const store = idempotencyStore(ctx, kind);
  if (!store.claim(ctx, key)) {
    sendJobsError(ctx, 422, 'idempotency_key_reuse', KEY_REUSE_MESSAGE, null);
    return null;
  }
  return { release: () => store.release(ctx, key) };
}
