// The features' reporters for a tool call: lines for people go to stderr (the protocol owns
// stdout), a followed job's snapshots become MCP progress notifications, and transfers are not
// drawn (no terminal to draw them on).
import type { FollowReporter, TransferReporter } from '../features/reporter.js';
import type { ModelProgress } from '../features/models/send.js';
import type { Job } from '../protocol/jobs.js';
import type { ToolCall } from './tool.js';
import { isTerminal } from '../protocol/jobs.js';

export function transferReporter(call: ToolCall): TransferReporter {
  return { notice: (level, line) => call.log(level, line), verbose: call.f.io.verbose, transfer: async () => undefined };
}

/** A job's state in a few words: `running (42%, node 3 of 5, step 4/8)`. */
export function jobLine(job: Job): string {
  const p = job.progress;
  const parts: string[] = [];
  if (p && Number.isFinite(p.value)) parts.push(`${Math.round(p.value * 100)}%`);
  if (p?.nodes_total) parts.push(`node ${Math.min(p.nodes_done + 1, p.nodes_total)} of ${p.nodes_total}`);
  if (p?.step != null && p.steps != null) parts.push(`step ${p.step}/${p.steps}`);
  if (job.queue_position != null && job.status === 'queued') parts.push(`queue position ${job.queue_position}`);
  return `job ${job.id} ${job.status}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

export function followReporter(call: ToolCall): FollowReporter<Job> {
  return {
    notice: (level, line) => call.log(level, line),
    verbose: call.f.io.verbose,
    // The end is the call's result, not a notification: one sent just before the result can reach the client after it.
    progress: (job) => (isTerminal(job.status) ? undefined : call.progress(job.progress?.value ?? undefined, jobLine(job))),
    event: (line) => call.log('info', line),
    stop: () => undefined,
  };
}

/** A keyed model call's waits (a retry, a collect of the running call) as progress notifications. */
export function modelCallReporter(call: ToolCall, model: string): FollowReporter<ModelProgress> {
  return {
    notice: (level, line) => call.log(level, line),
    verbose: call.f.io.verbose,
    progress: (p) => {
      if (p.kind !== 'wait') return undefined;
      const { wait } = p;
      return call.progress(undefined, `${model}: ${wait.kind === 'collect' ? 'collecting the running call' : 'retrying'} in ${Math.round(wait.delayMs / 1000)} s (${wait.error.message})`);
    },
    event: (line) => call.log('info', line),
    stop: () => undefined,
  };
}
