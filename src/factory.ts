// What every command gets (the `f` of a verb's run): IO streams, the global options, resolved
// settings, the profile store, the clock and the clients. An interface: the CLI's own is built in
// one place (src/cli-factory.ts, on the composition root, src/compose/); a unit test builds one
// from buffers with the fake clients it wants (test/helpers/fake-factory.ts).
import type { IOStreams, IOStreamsInit } from './render/io.js';
import type { GlobalFlags, SettingsUse } from './config/settings.js';
import type { FeatureContext } from './features/context.js';
import { UsageError } from './errors.js';

import { VERSION } from './factory-version.js';

export { VERSION };

export interface GlobalOptions extends GlobalFlags {
  json?: boolean;
  /** --jq EXPR: implies json; the output goes through jq (render/jq.ts). */
  jq?: string;
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean; // commander's --no-color sets false
  timeout?: string;
  retries?: string;
  maxAnswerMib?: string;
}

/** What a Factory is built from: the streams of the invocation, its global options and signal. */
export interface FactoryInit extends Pick<IOStreamsInit, 'stdin' | 'stdout' | 'stderr' | 'stdinIsTTY' | 'stdoutIsTTY' | 'stderrIsTTY' | 'env' | 'columns'> {
  globals: GlobalOptions;
  /** Aborted on Ctrl-C (reason InterruptedError) or at the --timeout deadline (TimeoutError). */
  signal: AbortSignal;
  /** What the command allows of the configured settings (a verb's `settingsUse`). */
  settingsUse?: SettingsUse;
}

export interface Factory extends FeatureContext {
  readonly io: IOStreams;
  readonly globals: GlobalOptions;
  /** What the command allows of the configured settings (a verb's `settingsUse`). */
  readonly settingsUse: SettingsUse;
  /** Forgets resolved settings and the client built from them (after a command changed the profile). */
  reload(): Promise<void>;
  /** Closes every client it built. */
  dispose(): Promise<void>;
}

/** Parses --timeout seconds (a positive number) into milliseconds. */
export function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout must be a positive number of seconds, got ${value}`);
  return Math.round(n * 1000);
}

/** --retries N: a whole number from 0 to 100, undefined when not given. */
export function parseRetries(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 100) throw new UsageError(`--retries must be a whole number from 0 to 100, got ${value}`);
  return n;
}
