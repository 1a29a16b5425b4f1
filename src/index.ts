// The library entry (`import { ... } from 'wes'`): the typed clients of the three API families, on the same HTTP
// layer the CLI uses, so a script gets the same retries, link handling and errors.
import { HttpClient, type HttpClientOptions, type RetryInfo } from './http/client.js';
import { JobsClient } from './clients/jobs/client.js';
import { ModelsClient } from './clients/models/client.js';
import { LegacyClient } from './clients/legacy/client.js';
import { DEFAULT_BASE_URL, type RouterApiSetting } from './config/keys.js';
import { RouterGeneration } from './clients/models/generation.js';
import { normalizeBaseUrl, resolveSettings, validateDeployment, type GlobalFlags } from './config/settings.js';
import { ProfileStore } from './config/store.js';
import { VERSION } from './factory-version.js';
import { proxySettings, type ProxySettings } from './http/proxy-env.js';

export { HttpClient, type HttpClientOptions, type HttpRequest, type HttpResponse, type RetryInfo, type ApiFamily } from './http/client.js';
/** @deprecated Renamed ApiFamily. */
export type { ApiFamily as ApiSurface } from './http/client.js';
export { resolveLink } from './http/links.js';
export { proxySettings, type ProxySettings } from './http/proxy-env.js';
export { ApiError, WesError, UsageError, NetworkError, TimeoutError, InterruptedError, ExitCode, EXIT_CODE_TABLE, exitCodeForApi } from './errors.js';
export { sanitize } from './util/sanitize.js';

// jobs: job API v2.
export { JobsClient, type FetchedJob, type FetchedAsset, type UploadRequest, type LogsAnswer } from './clients/jobs/client.js';
export { followJob, type FollowJobOptions } from './clients/jobs/follow-job.js';
/** @deprecated Renamed FollowJobOptions. */
export type { FollowJobOptions as FollowOptions } from './clients/jobs/follow-job.js';
export { downloadOutputs, type DownloadOptions, type DownloadResult, type SavedOutput } from './clients/jobs/download.js';
export { isTerminal, TERMINAL_STATUSES } from './protocol/jobs.js';
export type { Job, JobStatus, JobUrls, JobError, Output, AssetRecord, SubmitRequest, JobProgress } from './protocol/jobs.js';
/** @deprecated Renamed JobProgress (the spec's "A. Progress"), apart from the CLI's progress display. */
export type { JobProgress as Progress } from './protocol/jobs.js';

// models: the model router.
export { ModelsClient, type RunAnswer, type SchemaAnswer } from './clients/models/client.js';
export { ModelRequests, type QueueRead, type ResultRead } from './clients/models/requests.js';
export { RouterGeneration } from './clients/models/generation.js';
export { waitForResult } from './clients/models/queue-wait.js';
export { walkCatalog, type WalkOptions } from './clients/models/walk.js';
export { parseModelId, type ModelRef } from './protocol/model-ids.js';
export type { RouterApi, RouterModelListEntry, RouterModelDetail, RouterModelListResponse, RouterQueueStatusResponse, RouterQueueSubmitResponse, RouterQueueCancelResponse } from './protocol/models.js';

// legacy: cloud API v1 (deprecated).
export { LegacyClient } from './clients/legacy/client.js';
export type { V1PromptRequest, V1PromptResponse, V1JobStatus, V1Queue, V1UploadResult } from './protocol/legacy.js';

export interface ClientOptions {
  /** The jobs and legacy APIs; default http://127.0.0.1:8188 (where `wes dev-server` listens). May carry a path prefix and `{deployment}`. */
  baseUrl?: string;
  /** The models API; default the base URL. */
  routerUrl?: string;
  /** The router's routes: the interface's `v1`, the published `v2`, or `auto` (default: discovered on the first call). */
  routerApi?: RouterApiSetting;
  /** The legacy API (an engine behind a self-hosted job API server); default the base URL. */
  engineUrl?: string;
  /** Jobs: `Authorization: Bearer`; v1: `X-API-Key`. */
  apiKey?: string;
  /** Router bearer credential; default the API key. */
  routerToken?: string;
  /** Replaces `{deployment}` in the URLs; a DNS label. */
  deployment?: string;
  retries?: number;
  /** Milliseconds without progress before a response is abandoned and retried; default 30 000, 0 never. */
  readTimeoutMs?: number;
  signal?: AbortSignal;
  debug?: HttpClientOptions['debug'];
  onRetry?: (info: RetryInfo) => void;
  userAgent?: string;
  /** Proxies (`proxySettings(process.env)` reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY); default: direct connections. */
  proxy?: ProxySettings;
}

export interface Clients {
  http: HttpClient;
  jobs: JobsClient;
  models: ModelsClient;
  legacy: LegacyClient;
  /** Closes the connection pool (the process can exit without it; long-lived programs should call it). */
  close(): Promise<void>;
}

function clientsFor(http: HttpClient, routerApi: RouterApiSetting = 'auto'): Clients {
  const models = new ModelsClient(http, new RouterGeneration(http.baseUrlFor('models'), routerApi));
  return { http, jobs: new JobsClient(http), models, legacy: new LegacyClient(http), close: () => http.close() };
}

/** One HTTP client and the three API families' clients on it, from plain options (no config file, no environment). */
export function createClients(options: ClientOptions = {}): Clients {
  const deployment = validateDeployment(options.deployment);
  const baseUrl = normalizeBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, deployment, 'baseUrl');
  const routerUrl = options.routerUrl ? normalizeBaseUrl(options.routerUrl, deployment, 'routerUrl') : baseUrl;
  const engineUrl = options.engineUrl ? normalizeBaseUrl(options.engineUrl, deployment, 'engineUrl') : baseUrl;
  return clientsFor(
    new HttpClient({
      baseUrl,
      routerUrl,
      engineUrl,
      apiKey: options.apiKey,
      routerToken: options.routerToken ?? options.apiKey,
      retries: options.retries,
      readTimeoutMs: options.readTimeoutMs,
      signal: options.signal,
      debug: options.debug,
      onRetry: options.onRetry,
      userAgent: options.userAgent ?? `wes-lib/${VERSION} node/${process.versions.node}`,
      proxy: options.proxy,
    }),
    options.routerApi,
  );
}

export interface ConfigClientOptions extends Pick<ClientOptions, 'retries' | 'signal' | 'debug' | 'onRetry' | 'userAgent' | 'proxy'> {
  /** Overrides like the CLI's flags (`profile`, `baseUrl`, `apiKey`, ...). */
  flags?: GlobalFlags;
  /** Default process.env (WES_PROFILE, WES_BASE_URL, WES_API_KEY, ...; HTTPS_PROXY, HTTP_PROXY, NO_PROXY unless `proxy` is given). */
  env?: NodeJS.ProcessEnv;
}

/** The clients the CLI would use: flags, then WES_* environment, then the selected profile, then defaults. */
export function createClientsFromConfig(options: ConfigClientOptions = {}): Clients {
  const env = options.env ?? process.env;
  const s = resolveSettings(options.flags ?? {}, env, new ProfileStore(env.WES_CONFIG_DIR || undefined));
  return createClients({ ...options, baseUrl: s.baseUrl, routerUrl: s.routerUrl, routerApi: s.routerApi, engineUrl: s.engineUrl, apiKey: s.apiKey, routerToken: s.routerToken, deployment: s.deployment, readTimeoutMs: s.readTimeoutMs, proxy: options.proxy ?? proxySettings(env) });
}
