// The queued requests of this machine (profile and router URL), for the queue verbs: what submit
// and every read record, and the MODEL REQUEST_ID arguments, where `@last` / `@N` stand for the
// latest queued requests (the model id then comes from the history too).
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import type { HistoryEntry, JobHistory } from '../../config/history.js';
import { recordState as recordStateIn, requestHistoryOf } from '../../features/models/history.js';
import { parseModelId, requestIdProblem, type ModelRef } from '../../protocol/model-ids.js';
import type { Reporter } from '../../features/reporter.js';
import { modelArg } from './context.js';

/** The history's only lines (why a write did not happen) are --verbose ones. */
function debugOn(f: Factory): Reporter {
  return { notice: (_level, line) => f.io.debug(line), verbose: f.io.verbose };
}

export function historyOf(f: Factory): JobHistory {
  return requestHistoryOf(f);
}

/** A state seen for a request in the history (others are not added). */
export function recordState(f: Factory, requestId: string, status: string): void {
  recordStateIn(f, requestId, status, debugOn(f));
}

const REF = /^@(last|[1-9]\d{0,5})$/;

function fromHistory(f: Factory, arg: string): HistoryEntry {
  const m = REF.exec(arg);
  if (!m) throw new UsageError(`${arg} is not a request reference`, 'use a request id, @last, or @N for the N-th latest request queued from here; list them with `wes models requests`');
  const n = m[1] === 'last' ? 1 : Number(m[1]);
  const { entries, total } = historyOf(f).newest(n);
  const entry = entries[n - 1];
  if (entry) return entry;
  const where = `profile ${f.settings().profile} at ${f.settings().routerUrl}`;
  throw new UsageError(total === 0 ? `no model request queued from here yet for ${where}` : `${arg}: only ${total} request(s) queued from here for ${where}`, 'queue one with `wes models run MODEL ... --queue`; list them with `wes models requests`');
}

/** `MODEL REQUEST_ID`, or `@last` / `@N` alone (or in place of the id). */
export function requestArgs(f: Factory, args: { model: string; requestId?: string }, verb: string): QueuedRequestArgs {
  const { model: first, requestId: second } = args;
  if (second === undefined) {
    if (first?.startsWith('@')) {
      const entry = fromHistory(f, first);
      return { ref: parseModelId(entry.source), requestId: entry.id, links: entry.links };
    }
    throw new UsageError(`give the model id and the request id: wes models ${verb} provider/model REQUEST_ID`, 'or @last for the latest request queued from here; list them with `wes models requests`');
  }
  const ref = modelArg(first);
  const requestId = second.startsWith('@') ? fromHistory(f, second).id : second;
  const problem = requestIdProblem(requestId);
  if (problem) throw new UsageError(problem, 'a request id is what `wes models run ... --queue` printed; list them with `wes models requests`');
  return { ref, requestId, links: linksOf(f, requestId) };
}

export interface QueuedRequestArgs {
  ref: ModelRef;
  requestId: string;
  /** The URLs the request was given when it was submitted from here; absent: never seen submitted. */
  links?: Record<string, string>;
}

/** The URLs kept for a request queued from here (best effort: an unreadable history has none). */
function linksOf(f: Factory, requestId: string): Record<string, string> | undefined {
  try {
    return historyOf(f).find(requestId)?.entry.links;
  } catch {
    return undefined;
  }
}
