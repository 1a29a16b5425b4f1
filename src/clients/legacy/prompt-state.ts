// A prompt's state by REST, from whichever v1 server answers. The hosted cloud API has a status
// route; a self-hosted engine has none, so there the state comes from its queue (pending, running)
// and its history (ended: success, error, or interrupted, with the error and the outputs). Both
// give the cloud's terminal names (success, error, cancelled), so exit codes are the same.
import { ApiError, ExitCode, WesError } from '../../errors.js';
import { segment } from '../../http/links.js';
import type { LegacyClient } from './client.js';
import type { EngineKind } from './engine.js';
import { isRecord } from '../shared/response-check.js';
import { errorOutcome, fileRefsOf, type NodeFileRef, type WsOutcome } from './tracker.js';

export interface PromptState {
  status: string;
  /** How it ended, when the server said (the engine's history does; the cloud's status route does not). */
  outcome: WsOutcome | null;
  /** The cloud status route's `error_message` of a failed job (the published document's field). */
  errorMessage?: string;
  /** Output files, when the server listed them (the engine's history `outputs`). */
  outputs: NodeFileRef[];
  /** The cloud status route's answer as sent (what `legacy status --json` prints there). */
  answer?: Record<string, unknown>;
}

export interface StatusReader {
  /** Which server answers; null until the first read has found out. */
  readonly engine: EngineKind | null;
  read(promptId: string): Promise<PromptState>;
}

export class CloudStatusReader implements StatusReader {
  readonly engine = 'cloud' as const;
  constructor(private readonly client: LegacyClient) {}

  async read(promptId: string): Promise<PromptState> {
    const answer = await this.client.status(promptId).catch((err: unknown) => {
      if (isRouteMissing(err)) err.hint ??= NO_STATUS_ROUTE_HINT;
      throw err;
    });
    const state: PromptState = { status: answer.status, outcome: null, outputs: [], answer: { ...answer } };
    if (typeof answer.error_message === 'string' && answer.error_message !== '') state.errorMessage = answer.error_message;
    return state;
  }
}

/** The status route is missing: this is no cloud API (an engine lacks the route), whatever the setting says. */
const NO_STATUS_ROUTE_HINT =
  'the server has no status route, as a self-hosted ComfyUI engine has none; for your own ComfyUI use --engine self-hosted or --engine auto (WES_ENGINE), otherwise check the base URL';

/** The prompt id of a queue entry (`[number, id, prompt, extra_data, ...]`). */
export function entryId(entry: unknown): string | null {
  return Array.isArray(entry) && typeof entry[1] === 'string' ? entry[1] : null;
}

/** The history's `status.messages` (`[[type, data], ...]`) as an ending, when one is there. */
export function outcomeOfMessages(messages: unknown): WsOutcome | null {
  if (!Array.isArray(messages)) return null;
  for (const item of messages) {
    if (!Array.isArray(item) || !isRecord(item[1])) continue;
    const [type, data] = item as [unknown, Record<string, unknown>];
    if (type === 'execution_interrupted') return { kind: 'interrupted' };
    if (type === 'execution_success') return { kind: 'success' };
    if (type === 'execution_error') return errorOutcome(data);
  }
  return null;
}

/** A history entry as a state: `status_str` success or error; an interrupted run is an error with that message. */
export function stateOfHistory(entry: Record<string, unknown>): PromptState {
  const status = isRecord(entry.status) ? entry.status : {};
  const outcome = outcomeOfMessages(status.messages);
  const outputs = isRecord(entry.outputs) ? Object.entries(entry.outputs).flatMap(([node, output]) => fileRefsOf(node, output)) : [];
  if (status.status_str === 'success') return { status: 'success', outcome: outcome ?? { kind: 'success' }, outputs };
  if (outcome?.kind === 'interrupted') return { status: 'cancelled', outcome, outputs };
  return { status: 'error', outcome, outputs };
}

/**
 * The engine's answer: the queue first, then the history. In that order nothing is missed: a
 * prompt no longer queued when the queue was read is in the history by the time it is read. A
 * prompt in neither was never there, or was deleted from the queue before it ran: once this
 * reader has seen it queued, that is what happened (`cancelled`, as the cloud would say).
 */
export class EngineStatusReader implements StatusReader {
  readonly engine = 'self-hosted' as const;
  private readonly seenQueued = new Set<string>();
  constructor(private readonly client: LegacyClient) {}

  async read(promptId: string): Promise<PromptState> {
    segment(promptId); // an id that would change the request path is refused before any request
    const queue = await this.client.queue();
    if (queue.queue_running.some((e) => entryId(e) === promptId)) return this.queued(promptId, 'running');
    if (queue.queue_pending.some((e) => entryId(e) === promptId)) return this.queued(promptId, 'pending');
    const entry = await this.client.history(promptId);
    if (entry) return stateOfHistory(entry);
    if (this.seenQueued.has(promptId)) return { status: 'cancelled', outcome: null, outputs: [] };
    throw new WesError(`no prompt ${promptId} in the engine's queue or history`, {
      exitCode: ExitCode.NOT_FOUND,
      code: 'not_found',
      origin: 'legacy',
      hint: 'check the id; the engine forgets a prompt deleted from its queue, and its history when it restarts',
    });
  }

  private queued(promptId: string, status: 'pending' | 'running'): PromptState {
    this.seenQueued.add(promptId);
    return { status, outcome: null, outputs: [] };
  }
}

/**
 * The 404 a web server gives for a route it lacks, not the API's JSON answer: a ComfyUI engine's
 * static route answers with an empty body (current releases) or `404: Not Found` text (older ones).
 */
export function isRouteMissing(err: unknown): err is ApiError {
  return err instanceof ApiError && err.origin === 'legacy' && err.status === 404 && err.details === undefined;
}

/**
 * For when the server could not be asked what it is before the first read: that read asks the
 * cloud's status route. Only when that route is missing is the server asked what it is; a
 * self-hosted engine is then read from its queue and history from there on. What was found is
 * reported to `remember`.
 */
export class DetectingStatusReader implements StatusReader {
  private inner: StatusReader | null = null;
  private readonly cloud: CloudStatusReader;

  constructor(
    private readonly client: LegacyClient,
    private readonly identify: () => Promise<EngineKind>,
    private readonly remember: (kind: EngineKind) => Promise<void>,
  ) {
    this.cloud = new CloudStatusReader(client);
  }

  get engine(): EngineKind | null {
    return this.inner?.engine ?? null;
  }

  async read(promptId: string): Promise<PromptState> {
    if (this.inner) return this.inner.read(promptId);
    try {
      const state = await this.cloud.read(promptId);
      await this.settle(this.cloud);
      return state;
    } catch (err) {
      if (!isRouteMissing(err) || (await this.identify()) !== 'self-hosted') throw err;
      return (await this.settle(new EngineStatusReader(this.client))).read(promptId);
    }
  }

  private async settle(reader: StatusReader): Promise<StatusReader> {
    if (!this.inner) {
      this.inner = reader;
      await this.remember(reader.engine!);
    }
    return this.inner;
  }
}
