// What a use case gets from the command that runs it: the command's signal (Ctrl-C, --timeout),
// its settings and profile store, and HTTP clients built from them. The command's Factory is one;
// nothing here prints (a use case tells what happens through its Reporter, src/features/reporter.ts).
import type { HttpClient } from '../http/client.js';
import type { Settings } from '../config/settings.js';
import type { ProfileStore } from '../config/store.js';

export interface FeatureContext {
  /** Aborted on Ctrl-C (reason InterruptedError) or at the --timeout deadline (TimeoutError). */
  readonly signal: AbortSignal;
  readonly env: NodeJS.ProcessEnv;
  settings(): Settings;
  store(): ProfileStore;
  /** --retries, when given. */
  retries(): number | undefined;
  /** The command's HTTP client; with `signal`, one of its own (closed with the rest). */
  http(signal?: AbortSignal): HttpClient;
  /** A typed client (JobsClient, LegacyClient, ...) over http(signal): where a test can hand in another. */
  client<C>(make: new (http: HttpClient) => C, signal?: AbortSignal): C;
  /** A client for other settings (another profile or base URL), closed with the rest. */
  httpFor(settings: Settings, signal: AbortSignal, connections?: number): HttpClient;
}
