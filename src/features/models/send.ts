// A keyed model call (a run, a queued submit) sent by the router's rules (clients/models/run.ts:
// the same Idempotency-Key on every attempt, a collect where the router says the call is still
// running), judged by the one keyed send: answered, unsent, or in doubt. No search follows a
// call in doubt: the router records a call under its key and charges it once, so sending the key
// again collects it; the failure names the key and the command that does (in-doubt.ts). Each
// wait is told to the reporter as progress, the live line taken down once the call is over.
import type { FeatureContext } from '../context.js';
import type { FollowReporter } from '../reporter.js';
import { sendByRouterRules, type RunWait } from '../../clients/models/run.js';
import type { RouterQueueStatusResponse } from '../../protocol/models.js';
import { AnswerSinkError } from '../../http/answer-sink.js';
import { sendKeyed } from '../keyed/verdict.js';
import type { KeyedCall } from './in-doubt.js';

/** What a models use case waits on: a retry or collect of a keyed call, or a queued request's place (queue position, then status). */
export type ModelProgress = { kind: 'wait'; wait: RunWait } | { kind: 'state'; state: RouterQueueStatusResponse; nextMs: number };

/** The call's answer; a call that got none throws, told whether it may have gone through and what to do with the key. */
export async function sendModelCall<T>(f: FeatureContext, send: () => Promise<T>, call: KeyedCall, reporter: FollowReporter<ModelProgress>): Promise<T> {
  const retries = f.http().retries;
  const onWait = (wait: RunWait) => reporter.progress({ kind: 'wait', wait });
  const verdict = await sendKeyed(() => sendByRouterRules(send, { retries, signal: f.signal, onWait }), { signal: f.signal }).finally(() => reporter.stop());
  if (verdict.kind === 'answered' || verdict.kind === 'found') return verdict.value;
  // The output file could not be written: the run itself is not in doubt.
  if (verdict.error instanceof AnswerSinkError) throw verdict.error.cause;
  const { keyedFailure } = await import('./in-doubt.js');
  throw keyedFailure(verdict, call);
}
