// How a long-running use case tells what happens while it works. The feature says what happened;
// the command that runs it renders that: a spinner or plain lines on stderr, NDJSON on stdout,
// pictures, or nothing (--quiet). One vocabulary serves every use case: progress (the state now),
// notices (lines for people) and, when the use case is over, its outcome, which the feature
// returns and the command renders.

/**
 * How a line for people is shown: `debug` only with --verbose, `info` unless --quiet, `notice`
 * (an outcome not to miss) and `warn` (something wrong or doubtful) always.
 */
export type NoticeLevel = 'debug' | 'info' | 'notice' | 'warn';

export interface Reporter {
  /** A line for people, printed as given: server text in it is already sanitized (util/sanitize). */
  notice(level: NoticeLevel, line: string): void;
  /** Whether debug notices are shown: a feature composes them only then. */
  readonly verbose: boolean;
}

/**
 * Following something to its end (a v2 job, a v1 prompt, a queued model request; features/follow.ts): its state as it changes, the events that
 * stay on record above the live line, the records of a --json stream, preview pictures.
 */
export interface FollowReporter<S> extends Reporter {
  /** The state now (a job snapshot, a prompt's node and step, a queued request's place); a follow that waits for the line to be drawn awaits it. */
  progress(state: S): void | Promise<void>;
  /** Something that happened and stays on record (an output made, a reconnect). */
  event(line: string): void;
  /** A record of the --json stream; absent when none is printed. */
  data?(record: unknown): void;
  /** A preview picture; absent when none is shown. */
  preview?(image: Uint8Array): void;
  /** The live line goes: the follow stopped before its end (a failure, Ctrl-C), or needs it no more. */
  stop(): void;
  /** The follow reached its end, `state` terminal: the live line gives way to the outcome; absent when nothing is shown then. */
  ended?(state: S): void | Promise<void>;
}

/** One file's bytes as they move: its name, the bytes so far, the total when known. */
export interface TransferSample {
  name: string;
  bytes: number;
  total: number | null;
}

/** What a shown transfer is told as it goes. */
export interface TransferProgress {
  progress(sample: TransferSample): void;
  done(): void;
}

/** Files about to be uploaded or downloaded: their sizes (null where unknown). */
export interface TransferStart {
  verb: 'uploading' | 'downloading';
  sizes: Array<number | null>;
}

/** Bytes moving (uploads, downloads): the renderer decides whether a transfer is shown at all. */
export interface TransferReporter extends Reporter {
  /** What to tell as the files move, or undefined when nothing is shown (small files, --quiet, --json). */
  transfer(start: TransferStart): Promise<TransferProgress | undefined>;
}
