// What every command gets: IO streams, resolved settings, the profile store and the one HTTP
// client, built lazily from the global options. Tests build it from buffers.
import { HttpClient } from './http/client.js';
import { IOStreams, type IOStreamsInit } from './render/io.js';
import { NOTICE_FROM_MS, retryNotice } from './render/retry-notice.js';
import { ProfileStore } from './config/store.js';
import { resolveSettings, type GlobalFlags, type Settings, type SettingsUse } from './config/settings.js';
import { UsageError } from './errors.js';
import { MAX_ANSWER_ENV, parseMaxAnswer } from './http/answer-limit.js';
import { proxySettings, type ProxySettings } from './http/proxy-env.js';
import { readBlake3SettingFrom } from './util/blake3-setting.js';

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

export interface FactoryInit extends Pick<IOStreamsInit, 'stdin' | 'stdout' | 'stderr' | 'stdinIsTTY' | 'stdoutIsTTY' | 'stderrIsTTY' | 'env' | 'columns'> {
  globals: GlobalOptions;
  /** Aborted on Ctrl-C (reason InterruptedError) or at the --timeout deadline (TimeoutError). */
  signal: AbortSignal;
  /** What the command allows of the configured settings (a command module's `settingsUse`). */
  settingsUse?: SettingsUse;
}

export class Factory {
  readonly io: IOStreams;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  readonly signal: AbortSignal;
  readonly settingsUse: SettingsUse;
  private storeInstance?: ProfileStore;
  private settingsInstance?: Settings;
  private httpInstance?: HttpClient;
  private proxyInstance?: ProxySettings;
  /** Clients built for another signal (e.g. cancelling after Ctrl-C), closed with the rest. */
  private readonly extraClients: HttpClient[] = [];

  /** A Factory whose IO has loaded colour styles if a stream gets colour (IOStreams.open). */
  static async create(init: FactoryInit): Promise<Factory> {
    const io = await IOStreams.open({
      ...init,
      json: init.globals.json,
      quiet: init.globals.quiet,
      verbose: init.globals.verbose,
      noColor: init.globals.color === false,
    });
    return new Factory(init, io);
  }

  private constructor(init: FactoryInit, io: IOStreams) {
    this.env = init.env;
    readBlake3SettingFrom(init.env);
    this.globals = init.globals;
    this.signal = init.signal;
    this.settingsUse = init.settingsUse ?? {};
    this.io = io;
  }

  store(): ProfileStore {
    this.storeInstance ??= new ProfileStore(this.env.WES_CONFIG_DIR || undefined);
    return this.storeInstance;
  }

  settings(): Settings {
    this.settingsInstance ??= resolveSettings(this.globals, this.env, this.store(), this.settingsUse);
    return this.settingsInstance;
  }

  retries(): number | undefined {
    if (this.globals.retries === undefined) return undefined;
    const n = Number(this.globals.retries);
    if (!Number.isInteger(n) || n < 0 || n > 100) throw new UsageError(`--retries must be a whole number from 0 to 100, got ${this.globals.retries}`);
    return n;
  }

  /** The HTTP client for this command; `signal` overrides the command's own (e.g. after Ctrl-C). */
  http(signal: AbortSignal = this.signal): HttpClient {
    if (signal !== this.signal) {
      const client = this.buildHttp(signal);
      this.extraClients.push(client);
      return client;
    }
    this.httpInstance ??= this.buildHttp(signal);
    return this.httpInstance;
  }

  /**
   * A typed client over this command's HTTP client (one with `signal` of its own, as http()): the
   * one place commands and use cases get their clients from, so a test can hand them others.
   */
  client<C>(make: new (http: HttpClient) => C, signal?: AbortSignal): C {
    return new make(this.http(signal));
  }

  /** A client for other settings (another profile or base URL), closed with the rest. */
  httpFor(settings: Settings, signal: AbortSignal, connections?: number): HttpClient {
    const client = this.buildHttp(signal, settings, connections);
    this.extraClients.push(client);
    return client;
  }

  private buildHttp(signal: AbortSignal, s: Settings = this.settings(), connections?: number): HttpClient {
    return new HttpClient({
      baseUrl: s.baseUrl,
      routerUrl: s.routerUrl,
      engineUrl: s.engineUrl,
      apiKey: s.apiKey,
      routerToken: s.routerToken,
      retries: this.retries(),
      maxAnswerBytes: parseMaxAnswer(this.globals.maxAnswerMib, this.env[MAX_ANSWER_ENV]),
      readTimeoutMs: s.readTimeoutMs,
      signal,
      onRetry: (info) => {
        if (info.delayMs >= NOTICE_FROM_MS) this.io.transient(retryNotice(info));
      },
      debug: this.io.verbose ? (line) => this.io.debug(line) : undefined,
      userAgent: `wes/${VERSION} node/${process.versions.node}`,
      connections,
      proxy: (this.proxyInstance ??= proxySettings(this.env)),
    });
  }

  /** Forgets resolved settings and the client built from them (after a command changed the profile). */
  async reload(): Promise<void> {
    await this.httpInstance?.close();
    this.httpInstance = undefined;
    this.settingsInstance = undefined;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.extraClients.splice(0).map((c) => c.close()));
    await this.httpInstance?.close();
  }
}

/** Parses --timeout seconds (a positive number) into milliseconds. */
export function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout must be a positive number of seconds, got ${value}`);
  return Math.round(n * 1000);
}
