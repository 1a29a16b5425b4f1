// Calls made with an Idempotency-Key: the generation is kept under its key's scope (run.ts), so a
// retry with the same key and request collects it (still running or finished) instead of dispatching
// another. Transient failures are not kept: the retry dispatches again.
import type { ModelOutcome } from './stock/types.js';

export interface KeptCall {
  /** v1: the body's digest; v2: the request's (method, path and query, body). */
  bodyDigest: string;
  outcome: Promise<ModelOutcome>;
  keptAt: number;
  size: number;
  /** v2: calls of this key being answered right now (another one meanwhile is a 409). */
  attached?: number;
  /** v2: the headers of its success (price, spend figures), restated on a replay. */
  success?: Record<string, string>;
}

const TTL_MS = 30 * 60 * 1000;
const MAX_BYTES = 256 * 1024 * 1024;

export class IdempotencyStore {
  private readonly calls = new Map<string, KeptCall>();
  private bytes = 0;

  static scope(credential: string, modelId: string, key: string): string {
    return JSON.stringify([credential, modelId, key]);
  }

  get(scope: string): KeptCall | undefined {
    const kept = this.calls.get(scope);
    if (kept && Date.now() - kept.keptAt > TTL_MS) {
      this.forget(scope);
      return undefined;
    }
    return kept;
  }

  keep(scope: string, call: KeptCall): void {
    this.forget(scope);
    this.calls.set(scope, call);
    this.bytes += call.size;
    // Oldest first (Map keeps insertion order): big echo bodies must not pile up forever.
    for (const [oldest, kept] of this.calls) {
      if (this.bytes <= MAX_BYTES || oldest === scope) break;
      this.bytes -= kept.size;
      this.calls.delete(oldest);
    }
  }

  forget(scope: string): void {
    const kept = this.calls.get(scope);
    if (!kept) return;
    this.bytes -= kept.size;
    this.calls.delete(scope);
  }
}

/** Outcomes a retry must not replay: throttling, unavailability and provider timeouts. */
export function isTransient(outcome: ModelOutcome): boolean {
  return outcome.kind === 'error' && (outcome.status === 429 || outcome.status >= 500);
}
