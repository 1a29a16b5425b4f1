// The servers a batch spreads its lines over. Each endpoint has its own concurrency and paces
// itself by AIMD on the number of lines in flight: a "queue full" (429) halves the window (at
// most once per Retry-After period, so one burst of refusals counts once), every accepted submit
// grows it by 1/window, back up to the concurrency asked for. An endpoint that fails repeatedly
// (connection refused, 5xx after retries) is set aside for the rest of the run.
import type { JobsClient } from '../../clients/jobs/client.js';
import type { OpenClient } from '../../clients/jobs/events.js';
import type { EngineLines } from './engine-lines.js';

/** Consecutive endpoint failures (not line refusals) after which an endpoint is set aside. */
export const SET_ASIDE_AFTER = 5;

export interface EndpointSpec {
  /** Shown in the summary: the profile name, or the base URL. */
  name: string;
  /** Recorded in the journal as where a line went (a base URL without credentials). */
  url: string;
  client: JobsClient;
  openEvents?: OpenClient;
  concurrency: number;
  /** Set for a self-hosted ComfyUI engine: its lines go in as v1 prompts (`client` is then unused). */
  engine?: EngineLines;
  /** The partner-node key its lines carry in extra_data (the endpoint's own, never another origin's). */
  partnerKey?: string;
  /** The partner token, carried only where its lines are v1 prompts (an engine); a job API takes none. */
  partnerToken?: string;
}

export interface EndpointStats {
  name: string;
  url: string;
  submitted: number;
  succeeded: number;
  failed: number;
  throttled: number;
  /** The smallest in-flight window pacing brought it down to. */
  minWindow: number;
  concurrency: number;
  setAside: string | null;
  /** Finished lines per second over the time it had lines. */
  rate: number;
}

export class Endpoint {
  inFlight = 0;
  private window: number;
  private minWindow: number;
  private failures = 0;
  private lastDecrease = -Infinity;
  setAsideBecause: string | null = null;
  submitted = 0;
  succeeded = 0;
  failed = 0;
  throttled = 0;
  private firstStart = 0;
  private lastEnd = 0;

  constructor(readonly spec: EndpointSpec) {
    this.window = spec.concurrency;
    this.minWindow = spec.concurrency;
  }

  get name(): string {
    return this.spec.name;
  }

  get url(): string {
    return this.spec.url;
  }

  /** Lines this endpoint may take now. */
  get room(): number {
    if (this.setAsideBecause !== null) return 0;
    return Math.max(0, Math.floor(this.window) - this.inFlight);
  }

  started(now = Date.now()): void {
    this.inFlight++;
    if (this.firstStart === 0) this.firstStart = now;
  }

  ended(outcome: 'succeeded' | 'failed', now = Date.now()): void {
    this.inFlight--;
    this.lastEnd = now;
    if (outcome === 'succeeded') this.succeeded++;
    else this.failed++;
  }

  /** A submit the endpoint accepted: additive increase, and the failure streak is over. */
  accepted(): void {
    this.submitted++;
    this.failures = 0;
    this.window = Math.min(this.spec.concurrency, this.window + 1 / Math.max(1, this.window));
  }

  /** The endpoint refused for load (429): multiplicative decrease, once per wait period. */
  refusedForLoad(waitMs: number, now = Date.now()): void {
    this.throttled++;
    if (now - this.lastDecrease < Math.max(waitMs, 100)) return;
    this.lastDecrease = now;
    this.window = Math.max(1, Math.floor(this.window / 2));
    this.minWindow = Math.min(this.minWindow, this.window);
  }

  /** A failure of the endpoint itself; returns true when this one set it aside. */
  failedHard(reason: string): boolean {
    if (this.setAsideBecause !== null) return false;
    if (++this.failures < SET_ASIDE_AFTER) return false;
    this.setAsideBecause = reason;
    return true;
  }

  /** The endpoint answered (a read or a submit went through). */
  answered(): void {
    this.failures = 0;
  }

  stats(): EndpointStats {
    const seconds = Math.max(0.001, ((this.lastEnd || Date.now()) - (this.firstStart || Date.now())) / 1000);
    const finished = this.succeeded + this.failed;
    return {
      name: this.name,
      url: this.url,
      submitted: this.submitted,
      succeeded: this.succeeded,
      failed: this.failed,
      throttled: this.throttled,
      minWindow: this.minWindow,
      concurrency: this.spec.concurrency,
      setAside: this.setAsideBecause,
      rate: finished ? finished / seconds : 0,
    };
  }
}
