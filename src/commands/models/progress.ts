// The one progress line a models command keeps on stderr while it waits: a collect (what it waits
// for, and under which Idempotency-Key), a retry, or a queued request's place (queue position,
// then status), as the models use cases tell them. The spinner module loads only when there is
// something to show.
import type { IOStreams } from '../../render/io.js';
import { ApiError } from '../../errors.js';
import type { ProgressDisplay } from '../../render/progress-display.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import type { RouterQueueStatusResponse } from '../../protocol/models.js';
import type { RunWait } from '../../clients/models/run.js';
import type { FollowReporter, NoticeLevel } from '../../features/reporter.js';
import type { ModelProgress } from '../../features/models/send.js';
import { notice } from '../reporters.js';

function seconds(ms: number): number {
  return Math.max(1, Math.round(ms / 1000));
}

export async function waitText(ref: ModelRef, wait: RunWait, retries: number, key: string | undefined): Promise<string> {
  const s = seconds(wait.delayMs);
  if (wait.kind === 'collect') {
    const under = key ? ` with Idempotency-Key ${key}` : '';
    return wait.reason === 'in_flight'
      ? `an earlier call of ${ref.id}${under} is still running (409); collecting its result in ${s} s`
      : `${ref.id} is still running at the provider (the router stopped waiting); collecting it in ${s} s${under}`;
  }
  const err = wait.error;
  let reason = `${err.code}: ${err.message}`;
  const spend = err instanceof ApiError ? (err.details as { committed_spend?: { limit_cents: number; current_cents: number; remaining_cents: number } } | undefined)?.committed_spend : undefined;
  const { cents } = await import('../../render/error.js');
  if (spend) reason += ` (committed spend: limit ${cents(spend.limit_cents)}, in flight ${cents(spend.current_cents)}, remaining ${cents(spend.remaining_cents)})`;
  return `${reason}; retry ${wait.attempt}/${retries} in ${s} s`;
}

/** "dev/slow 6f1a1a6e: in queue, position 2 (asking again in 3 s)". */
export function stateText(ref: ModelRef, state: RouterQueueStatusResponse, nextMs: number): string {
  const where =
    state.status === 'IN_QUEUE' ? `in queue${state.queue_position === undefined ? '' : `, position ${state.queue_position}`}`
    : state.status === 'IN_PROGRESS' ? 'running'
    : state.status.toLowerCase();
  return `${ref.id} ${state.request_id.slice(0, 8)}: ${where} (asking again in ${seconds(nextMs)} s)`;
}

/**
 * What a models use case tells (features/models), on stderr: each wait or queued state as the one
 * progress line, opened on the first and taken down by stop(); notices as lines of their level.
 */
export class ModelProgressView implements FollowReporter<ModelProgress> {
  private display: ProgressDisplay | undefined;
  readonly verbose: boolean;

  /** `retries`: the most a wait can count to; `key`: the Idempotency-Key a keyed call's waits name. */
  constructor(
    private readonly io: IOStreams,
    private readonly ref: ModelRef,
    private readonly retries: number,
    private readonly key?: string,
  ) {
    this.verbose = io.verbose;
  }

  async progress(p: ModelProgress): Promise<void> {
    const text = p.kind === 'wait' ? await waitText(this.ref, p.wait, this.retries, this.key) : stateText(this.ref, p.state, p.nextMs);
    if (this.display) return this.display.update(text);
    this.display = await (await import('../../render/open-progress.js')).openProgressDisplay(this.io, text);
  }

  notice(level: NoticeLevel, line: string): void {
    notice(this.io, level, line);
  }

  event(line: string): void {
    this.io.info(line);
  }

  stop(): void {
    this.display?.stop();
    this.display = undefined;
  }
}
