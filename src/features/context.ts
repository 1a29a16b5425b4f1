// What a use case gets from the command that runs it: the command's signal (Ctrl-C, --timeout),
// its settings and profile store, HTTP clients built from them, its clock and what the
// environment says of hashing. The command's Factory is one (src/factory.ts); nothing here prints
// (a use case tells what happens through its Reporter, src/features/reporter.ts).
import type { HttpClient } from '../http/client.js';
import type { Settings } from '../config/settings.js';
import type { ProfileStore } from '../config/store.js';
import type { Clock } from '../util/clock.js';
import type { HashSetting } from '../util/blake3-setting.js';

export interface FeatureContext {
  /** Aborted on Ctrl-C (reason InterruptedError) or at the --timeout deadline (TimeoutError). */
  readonly signal: AbortSignal;
  readonly env: NodeJS.ProcessEnv;
  /** The time polls and waits read (the system's; a test's own in unit tests). */
  readonly clock: Clock;
  settings(): Settings;
  store(): ProfileStore;
  /** --retries, when given. */
  retries(): number | undefined;
  /** WES_BLAKE3 and WES_PART_THREAD of this run's environment, for every hash and save. */
  hashing(): HashSetting;
  /** The command's HTTP client; with `signal`, one of its own (closed with the rest). */
  http(signal?: AbortSignal): HttpClient;
  /**
   * A typed client (JobsClient, LegacyClient, ...) over http(signal), `make`'s own way or `build`'s
   * (a client that needs more than the HTTP client): where a test hands in another, by `make`.
   */
  client<C>(make: new (http: HttpClient, ...rest: never[]) => C, signal?: AbortSignal, build?: (http: HttpClient) => C): C;
  /** A client for other settings (another profile or base URL), closed with the rest. */
  httpFor(settings: Settings, signal: AbortSignal, connections?: number): HttpClient;
}
