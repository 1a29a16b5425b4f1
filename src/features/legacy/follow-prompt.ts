// Follows a v1 prompt over the WebSocket for `legacy watch` and `legacy prompt --ws`, telling its
// reporter the executing node and step, the prompt's messages and frames (the --json stream),
// preview pictures, and what happened on the way; previews are saved with --previews. The socket reconnects after a drop; after every (re)connect, and now and then
// while connected, the REST status is read so a finish the socket missed still ends the wait.
// On a self-hosted engine the socket's ending message is final by itself: the engine has no status
// route, and its history may be written a moment after the message. An engine sends a prompt's
// messages only to the client id given with the prompt: the socket's id (`clientId`) goes with
// the submit; a prompt submitted elsewhere is followed by REST, with what progress the engine
// broadcasts.
import { randomUUID } from 'node:crypto';
import { InterruptedError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { LegacyClient } from '../../clients/legacy/client.js';
import { FRAME_PREVIEW_IMAGE, FRAME_PREVIEW_IMAGE_WITH_METADATA, FRAME_TEXT, type BinaryFrame } from '../../protocol/legacy-frames.js';
import { statusOfOutcome } from '../../clients/legacy/outcome.js';
import { openLegacySocket, type LegacySocket, type SocketEvent } from '../../clients/legacy/socket.js';
import { PromptTracker, type WsOutcome } from '../../clients/legacy/tracker.js';
import { isV1Terminal } from '../../protocol/legacy.js';
import type { StatusReader } from '../../clients/legacy/prompt-state.js';
import { PreviewSaver } from './files.js';
import type { ExistingPolicy } from '../../files/existing.js';
import { shellWord } from '../../util/shell-word.js';
import type { FeatureContext } from '../context.js';
import type { FollowReporter, Reporter } from '../reporter.js';
import { following, type Follow } from '../follow.js';
import type { PromptProgress } from './prompt-progress.js';

export interface FollowPromptOptions {
  previewsDir?: string;
  /** An existing preview file: --clobber / --skip-existing. */
  existing?: ExistingPolicy;
  /** The submitted workflow, to name node classes in the spinner. */
  workflow?: Record<string, unknown>;
  /** How often the REST status is read while the socket is quiet. */
  checkEveryMs: number;
  /** The server is a self-hosted engine: one prompt at a time, and it asks for type-4 previews without asking /features. */
  engine?: boolean;
}

export interface FollowResult {
  promptId: string;
  status: string;
  outcome: WsOutcome | null;
  tracker: PromptTracker;
  reconnects: number;
  previewsSaved: number;
  /** Preview frames that came while more than one prompt was executing, so could not be told as ours. */
  previewsUnattributed: number;
  /** The cloud status route's `error_message`, when REST named the ending. */
  errorMessage?: string;
}

/** After REST reports the end, how long to let the socket deliver the last messages. */
const SETTLE_GRACE_MS = 750;

const FRAME_NAMES: Record<number, string> = {
  [FRAME_PREVIEW_IMAGE]: 'PREVIEW_IMAGE',
  [FRAME_TEXT]: 'TEXT',
  [FRAME_PREVIEW_IMAGE_WITH_METADATA]: 'PREVIEW_IMAGE_WITH_METADATA',
};

export class PromptFollower {
  private socket: LegacySocket | null = null;
  private readonly buffered: SocketEvent[] = [];
  private tracker: PromptTracker | null = null;
  private view: FollowReporter<PromptProgress> | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** Events on the chain, not yet handled. */
  private waiting = 0;
  private resolveDone!: (status: string) => void;
  private rejectDone!: (err: unknown) => void;
  private readonly done = new Promise<string>((resolve, reject) => {
    this.resolveDone = resolve;
    this.rejectDone = reject;
  });
  private ended = false;
  private restStatus: string | null = null;
  private errorMessage: string | undefined;
  private reconnects = 0;
  private oursSeen = 0;
  private previewsSaved = 0;
  private previewsUnattributed = 0;
  /** The socket's client id: given with a submit, the engine sends that prompt's messages to this socket alone. */
  readonly clientId = randomUUID();
  /** The last TEXT frame, as received: sanitized only when the spinner shows it. */
  private lastText: { node: string; text: string } = { node: '', text: '' };
  private readonly saver: PreviewSaver | null;

  /** `notices`: what is said before the follow has its reporter (the socket's --verbose lines, preview files that cannot be written). */
  constructor(
    private readonly f: FeatureContext,
    private readonly client: LegacyClient,
    private readonly reader: StatusReader,
    private readonly settings: FollowPromptOptions,
    private readonly notices: Reporter,
  ) {
    this.saver = settings.previewsDir ? new PreviewSaver(settings.previewsDir, { existing: settings.existing, warn: (line) => notices.notice('warn', line), hashing: f.hashing() }) : null;
    this.done.catch(() => undefined);
  }

  /** Opens the socket first, so a prompt submitted afterwards cannot finish unseen. */
  async connect(): Promise<void> {
    const { notices } = this;
    // An engine that does not know `feature_flags` ignores it (0.3.18): only the cloud is asked first.
    const previewMetadata = this.settings.engine === true || (await this.client.features()).supports_preview_metadata;
    this.socket = openLegacySocket({
      http: this.f.http(),
      clientId: this.clientId,
      previewMetadata,
      signal: this.f.signal,
      giveUpHint: 'check the connection, or follow the job by polling: `wes legacy status <prompt_id> --wait`',
      debug: notices.verbose ? (line) => notices.notice('debug', line) : undefined,
      onEvent: (event) => {
        if (this.tracker) this.enqueue(event);
        else this.buffered.push(event);
      },
    });
    this.socket.closed.catch((err: unknown) => this.rejectDone(err));
    await this.socket.ready;
  }

  /** `promptId` followed to its end, told to its view (opened after connect(): events are handled once the tracker is set, and they go to it). */
  follow(promptId: string): Follow<PromptProgress, FollowResult> {
    return (view) => this.followTo(promptId, view);
  }

  private async followTo(promptId: string, view: FollowReporter<PromptProgress>): Promise<FollowResult> {
    if (!this.socket) await this.connect();
    this.view = view;
    const tracker = (this.tracker = new PromptTracker(promptId, { oneAtATime: this.settings.engine === true }));
    for (const event of this.buffered.splice(0)) this.enqueue(event);
    const timer = setInterval(() => this.checkStatus(), this.settings.checkEveryMs);
    this.checkStatus();
    let status: string;
    try {
      status = await following(view, () => this.done, async (err) => {
        if (err instanceof InterruptedError) {
          // Previews being written finish first, so the count told is what is on disk.
          this.ended = true;
          await this.chain.catch(() => undefined);
          this.tellHowToGoOn(err, promptId);
        }
        return err;
      });
    } finally {
      clearInterval(timer);
      this.socket!.close();
    }
    await this.chain;
    return { promptId, status, outcome: tracker.outcome, tracker, reconnects: this.reconnects, previewsSaved: this.previewsSaved, previewsUnattributed: this.previewsUnattributed, errorMessage: this.errorMessage };
  }

  /** Ctrl-C or SIGTERM: what was kept, and the command that follows the prompt on. */
  private tellHowToGoOn(err: InterruptedError, promptId: string): void {
    const dir = this.settings.previewsDir;
    const saved = dir ? `; ${this.previewsSaved} preview(s) saved in ${dir}, each file whole` : '';
    const previews = dir ? ` --previews ${shellWord(dir)}` : '';
    err.tell(sanitizeLine(`prompt ${promptId} keeps running on the service${saved}`), `wes legacy watch ${promptId}${previews}`);
  }

  /** Closes the socket when no prompt will be followed (the submit failed). */
  close(): void {
    this.socket?.close();
  }

  /**
   * Events are handled in order. While nothing is waiting they are handled at once: a promise per
   * message cost a prompt of 50 000 messages a tenth of its CPU. A preview being saved to disk makes
   * the events behind it wait their turn on the chain.
   */
  private enqueue(event: SocketEvent): void {
    if (this.waiting === 0 && !this.mustWait(event)) {
      try {
        this.handle(event);
      } catch (err) {
        this.rejectDone(err);
      }
      return;
    }
    this.waiting++;
    this.chain = this.chain
      .then(() => (event.kind === 'binary' ? this.handleFrame(event.frame) : this.handle(event)))
      .catch((err: unknown) => this.rejectDone(err))
      .then(() => void this.waiting--);
  }

  private mustWait(event: SocketEvent): boolean {
    return event.kind === 'binary' && event.frame.type !== FRAME_TEXT && this.saver !== null;
  }

  private handle(event: SocketEvent): void {
    if (this.ended) return;
    const view = this.view!;
    const tracker = this.tracker!;
    switch (event.kind) {
      case 'open':
        this.oursSeen = 0; // counts what this connection carried of our prompt
        if (event.reconnected) {
          this.reconnects++;
          tracker.forgetOthers();
          view.event('WebSocket reconnected; re-checking the status');
          this.checkStatus();
        }
        return;
      case 'drop':
        view.event(`WebSocket connection lost (${sanitizeLine(event.reason)}); reconnecting in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt})`);
        return;
      case 'malformed':
        view.notice('debug', `skipped a malformed WebSocket frame: ${event.reason}`);
        return;
      case 'message': {
        if (!tracker.accept(event.message)) return;
        this.oursSeen++;
        view.data?.(event.message);
        this.render(event.message.type, event.message.data);
        if (tracker.outcome) this.finishFromSocket(tracker.outcome);
        return;
      }
      case 'binary':
        this.reportFrame(event.frame);
        return;
    }
  }

  private render(type: string, data: Record<string, unknown>): void {
    const tracker = this.tracker!;
    const view = this.view!;
    if (type === 'execution_cached' && tracker.cached.length > 0) {
      view.event(`cached nodes (not run again): ${tracker.cached.map((n) => sanitizeLine(n)).join(', ')}`);
    } else if (type === 'executed') {
      const node = typeof data.node === 'string' ? data.node : '';
      for (const ref of tracker.outputs.filter((o) => o.node === node)) view.event(`output of node ${sanitizeLine(node)}: ${sanitizeLine(ref.filename)} (${sanitizeLine(ref.type)})`);
    } else if (type === 'notification' && typeof data.value === 'string') {
      view.notice('debug', `notification: ${sanitizeLine(data.value)}`);
    }
    this.showProgress();
  }

  /** The prompt's state now, for the live line. */
  private showProgress(): void {
    const tracker = this.tracker!;
    const node = tracker.currentNode;
    const cls = node ? (this.settings.workflow?.[node] as { class_type?: unknown } | undefined)?.class_type : undefined;
    void this.view!.progress({
      kind: 'live',
      promptId: tracker.promptId,
      finishing: tracker.outcome !== null,
      status: this.restStatus,
      node,
      ...(typeof cls === 'string' ? { classType: cls } : {}),
      ...(tracker.step ? { step: tracker.step } : {}),
      // A node's progress text often repeats its step count; the view shows it only when there is no step.
      ...(node && this.lastText.node === node && this.lastText.text ? { text: this.lastText.text } : {}),
    });
  }

  /** Which node a frame belongs to when it is ours; null when it is another prompt's (or unknowable). */
  private ownerNode(frame: BinaryFrame): { ours: true; node: string | null } | { ours: false } {
    const tracker = this.tracker!;
    if (frame.type === FRAME_PREVIEW_IMAGE_WITH_METADATA) {
      if (frame.metadata.prompt_id !== tracker.promptId) return { ours: false };
      return { ours: true, node: frame.metadata.display_node_id || frame.metadata.node_id };
    }
    const claim = tracker.claimAnonymous();
    if (!claim.ours) {
      if (claim.reason.includes('cannot be attributed')) {
        if (frame.type !== FRAME_TEXT) this.previewsUnattributed++;
        this.view!.notice('debug', `skipped a ${FRAME_NAMES[frame.type]} frame: ${claim.reason}`);
      }
      return { ours: false };
    }
    return { ours: true, node: frame.type === FRAME_TEXT ? frame.nodeId : claim.node };
  }

  /** A binary frame whose preview is saved first (--previews). */
  private async handleFrame(frame: BinaryFrame): Promise<void> {
    if (this.ended) return;
    const owner = this.ownerNode(frame);
    if (!owner.ours) return;
    let file: string | undefined;
    if (frame.type !== FRAME_TEXT && this.saver) {
      file = (await this.saver.save(owner.node, frame.format, frame.image)).path;
      this.previewsSaved++;
      this.view!.notice('debug', `preview saved: ${file}`);
    }
    this.reportFrame(frame, owner, file);
  }

  private reportFrame(frame: BinaryFrame, owner = this.ownerNode(frame), file?: string): void {
    if (!owner.ours) return;
    const view = this.view!;
    if (frame.type !== FRAME_TEXT) view.preview?.(frame.image);
    if (frame.type === FRAME_TEXT) {
      this.lastText = { node: frame.nodeId, text: frame.text };
      if (view.verbose) view.notice('debug', `node ${sanitizeLine(frame.nodeId)}: ${sanitizeLine(frame.text).slice(0, 80)}`);
      this.showProgress();
    }
    if (view.data) {
      const bytes = frame.type === FRAME_TEXT ? Buffer.byteLength(frame.text) : frame.image.length;
      view.data(
        {
          type: FRAME_NAMES[frame.type],
          node_id: owner.node,
          bytes,
          ...(frame.type === FRAME_TEXT ? { text: frame.text } : { format: frame.format }),
          ...(file ? { file } : {}),
        },
      );
    }
  }

  private checkStatus(): void {
    if (this.ended) return;
    const tracker = this.tracker!;
    this.reader.read(tracker.promptId).then(
      ({ status, errorMessage }) => {
        if (this.ended) return;
        this.errorMessage = errorMessage;
        if (!isV1Terminal(status)) {
          if (status !== this.restStatus) {
            this.restStatus = status;
            this.showProgress();
          }
          return;
        }
        // What the socket already holds is read first (it reads in batches). A socket that is
        // carrying this prompt usually delivers the end too: give it a moment so the last messages
        // (and the outputs they name) are kept.
        void this.socket!.drain().then(() => {
          if (!this.ended) setTimeout(() => this.finish(status), tracker.outcome || this.oursSeen === 0 ? 0 : SETTLE_GRACE_MS).unref();
        });
      },
      (err: unknown) => this.rejectDone(err),
    );
  }

  /** The socket said the prompt ended; REST names the exact terminal status when it can. */
  private finishFromSocket(outcome: WsOutcome): void {
    if (this.settings.engine === true || this.reader.engine === 'self-hosted') return this.finish(statusOfOutcome(outcome));
    const tracker = this.tracker!;
    this.reader.read(tracker.promptId).then(
      ({ status, errorMessage }) => {
        this.errorMessage = errorMessage;
        this.finish(isV1Terminal(status) ? status : statusOfOutcome(outcome));
      },
      () => this.finish(statusOfOutcome(outcome)),
    );
  }

  /** The run ended with `status` (the command renders the ending: the success line, or the error it reports). */
  private finish(status: string): void {
    if (this.ended) return;
    this.ended = true;
    this.resolveDone(status);
  }
}
