// The CLI's Factory: IO on the process's streams (or a test's buffers), settings resolved from the
// global options, the environment and the profile, and clients built lazily on the composition
// root (src/compose/), closed when the command ends. Built in one place, src/program.ts.
import type { HttpClient } from './http/client.js';
import { IOStreams } from './render/io.js';
import { NOTICE_FROM_MS, retryNotice } from './render/retry-notice.js';
import { ProfileStore } from './config/store.js';
import { resolveSettings, type Settings, type SettingsUse } from './config/settings.js';
import { proxySettings, type ProxySettings } from './http/proxy-env.js';
import { hashSettingFrom, type HashSetting } from './util/blake3-setting.js';
import { systemClock, type Clock } from './util/clock.js';
import { composeHttp, userAgentOf } from './compose/http.js';
import { lazyDeploymentMemory, type DeploymentAware } from './clients/jobs/deployment-memory.js';
import { parseRetries, type Factory, type FactoryInit, type GlobalOptions } from './factory.js';

export { parseTimeout } from './factory.js';

/** The invocation's IO as its global options set it (--json, --quiet, --verbose, --no-color); colour styles loaded if a stream gets colour. */
export function openFactoryIO(init: FactoryInit): Promise<IOStreams> {
  return IOStreams.open({ ...init, json: init.globals.json, jq: init.globals.jq !== undefined, quiet: init.globals.quiet, verbose: init.globals.verbose, noColor: init.globals.color === false });
}

export class CliFactory implements Factory {
  readonly io: IOStreams;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  readonly signal: AbortSignal;
  readonly settingsUse: SettingsUse;
  readonly clock: Clock = systemClock;
  private storeInstance?: ProfileStore;
  private settingsInstance?: Settings;
  private httpInstance?: HttpClient;
  private proxyInstance?: ProxySettings;
  private hashInstance?: HashSetting;
  /** Clients built for another signal (e.g. cancelling after Ctrl-C), closed with the rest. */
  private readonly extraClients: HttpClient[] = [];

  /** A Factory whose IO has loaded colour styles if a stream gets colour (IOStreams.open). */
  static async create(init: FactoryInit): Promise<CliFactory> {
    return new CliFactory(init, await openFactoryIO(init));
  }

  /** Protected: a unit test's FakeFactory (test/helpers/fake-factory.ts) is one with other clients and clock. */
  protected constructor(init: FactoryInit, io: IOStreams) {
    this.env = init.env;
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
    return parseRetries(this.globals.retries);
  }

  hashing(): HashSetting {
    this.hashInstance ??= hashSettingFrom(this.env);
    return this.hashInstance;
  }

  http(signal: AbortSignal = this.signal): HttpClient {
    if (signal !== this.signal) {
      const client = this.buildHttp(signal);
      this.extraClients.push(client);
      return client;
    }
    this.httpInstance ??= this.buildHttp(signal);
    return this.httpInstance;
  }

  client<C>(make: new (http: HttpClient, ...rest: never[]) => C, signal?: AbortSignal, build?: (http: HttpClient) => C): C {
    const http = this.http(signal);
    const client = build ? build(http) : new make(http);
    // The job API client learns which deployment answers; the profile's setting pins it, its cache remembers it.
    const s = this.settings();
    (client as Partial<DeploymentAware>).useDeployment?.(s.jobApi, lazyDeploymentMemory(this.store(), s.profile));
    return client;
  }

  httpFor(settings: Settings, signal: AbortSignal, connections?: number): HttpClient {
    const client = this.buildHttp(signal, settings, connections);
    this.extraClients.push(client);
    return client;
  }

  private buildHttp(signal: AbortSignal, s: Settings = this.settings(), connections?: number): HttpClient {
    return composeHttp({
      endpoints: s,
      env: this.env,
      maxAnswerMib: this.globals.maxAnswerMib,
      retries: this.retries(),
      signal,
      connections,
      onRetry: (info) => {
        if (info.delayMs >= NOTICE_FROM_MS) this.io.transient(retryNotice(info));
      },
      debug: this.io.verbose ? (line) => this.io.debug(line) : undefined,
      userAgent: userAgentOf('wes'),
      proxy: (this.proxyInstance ??= proxySettings(this.env)),
      clock: this.clock,
    });
  }

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
