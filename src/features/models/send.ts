// A keyed model call (a run, a queued submit) sent by the router's rules (clients/models/run.ts:
// the same Idempotency-Key on every attempt, a collect where the router says the call is still
// running), judged by the one keyed send: answered, unsent, or in doubt. No search follows a
// call in doubt: the router records a call under its key and charges it once, so sending the key
// again collects it; the command says how.
import type { FeatureContext } from '../context.js';
import { sendByRouterRules, type RunWait } from '../../clients/models/run.js';
import { sendKeyed, type Verdict } from '../keyed/verdict.js';

export async function sendModelCall<T>(f: FeatureContext, send: () => Promise<T>, onWait: (wait: RunWait) => void | Promise<void>): Promise<Verdict<T>> {
  const retries = f.http().retries;
  return sendKeyed(() => sendByRouterRules(send, { retries, signal: f.signal, onWait }), { signal: f.signal });
}
