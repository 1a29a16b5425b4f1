// The library entry (`import { ... } from 'wes'`): the typed clients of the three API families, on the same HTTP
// layer the CLI uses, so a script gets the same retries, link handling and errors.
import type { HttpClient, HttpClientOptions, RetryInfo } from './http/client.js';
import type { JobsClient } from './clients/jobs/client.js';
import type { ModelsClient } from './clients/models/client.js';
import type { LegacyClient } from './clients/legacy/client.js';
import { DEFAULT_BASE_URL, type RouterApiSetting } from './config/keys.js';
import { normalizeBaseUrl, resolveSettings, validateDeployment, type GlobalFlags } from './config/settings.js';
import { ProfileStore } from './config/store.js';
import { proxySettings, type ProxySettings } from './http/proxy-env.js';
import { composeHttp, userAgentOf } from './compose/http.js';
import { composeClients } from './compose/clients.js';

/** No proxy variable: every connection direct. */
const NO_PROXIES = proxySettings({});

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
  /** Jobs: `Authorization: Bearer`; v1: `X-API-Key`. Sent only to the base URL's origin (an engine URL on another origin never gets it). */
  apiKey?: string;
  /** Router bearer credential; default the API key. */
  routerToken?: string;
  /** The engine URL's own key (`X-API-Key`, WebSocket `token`), for an engine that wants one; default none. */
  engineKey?: string;
  /** Replaces `{deployment}` in the URLs; a DNS label. */
  deployment?: string;
  retries?: number;
  /** Milliseconds without progress before a response is abandoned and retried; default 30 000, 0 never. */
  readTimeoutMs?: number;
  signal?: AbortSignal;
  debug?: HttpClientOptions['debug'];
  onRetry?: (info: RetryInfo) => void;
  userAgent?: string;
  /** Proxies (`proxySettings(process.env)` reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY); default: those of `env`, and without `env` direct connections. */
  proxy?: ProxySettings;
  /** The largest answer held in memory, in MiB (the CLI's --max-answer-mib); default WES_MAX_ANSWER_MIB of `env`, else 64. */
  maxAnswerMib?: number;
  /** Where WES_MAX_ANSWER_MIB and the proxy variables are read, as the CLI reads them; default none (createClientsFromConfig: process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface Clients {
  http: HttpClient;
  jobs: JobsClient;
  models: ModelsClient;
  legacy: LegacyClient;
  /** Closes the connection pool (the process can exit without it; long-lived programs should call it). */
  close(): Promise<void>;
}

/** One HTTP client and the three API families' clients on it, from plain options (no config file; no environment unless `env` is given). */
export function createClients(options: ClientOptions = {}): Clients {
  const deployment = validateDeployment(options.deployment);
  const baseUrl = normalizeBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, deployment, 'baseUrl');
  const routerUrl = options.routerUrl ? normalizeBaseUrl(options.routerUrl, deployment, 'routerUrl') : baseUrl;
  const engineUrl = options.engineUrl ? normalizeBaseUrl(options.engineUrl, deployment, 'engineUrl') : baseUrl;
  const env = options.env ?? {};
  const http = composeHttp({
    endpoints: { baseUrl, routerUrl, engineUrl, apiKey: options.apiKey, routerToken: options.routerToken ?? options.apiKey, engineKey: options.engineKey, readTimeoutMs: options.readTimeoutMs },
    env,
    maxAnswerMib: options.maxAnswerMib === undefined ? undefined : String(options.maxAnswerMib),
    retries: options.retries,
    signal: options.signal,
    debug: options.debug,
    onRetry: options.onRetry,
    userAgent: options.userAgent ?? userAgentOf('wes-lib'),
    // Without `env`, direct connections, as before; with it, its proxy variables.
    proxy: options.proxy ?? (options.env ? undefined : NO_PROXIES),
  });
  return { http, ...composeClients(http, options.routerApi ?? 'auto'), close: () => http.close() };
}

export interface ConfigClientOptions extends Pick<ClientOptions, 'retries' | 'signal' | 'debug' | 'onRetry' | 'userAgent' | 'proxy' | 'maxAnswerMib'> {
  /** Overrides like the CLI's flags (`profile`, `baseUrl`, `apiKey`, ...). */
  flags?: GlobalFlags;
  /**
   * Default process.env: WES_PROFILE, WES_BASE_URL, WES_API_KEY and the other settings,
   * WES_MAX_ANSWER_MIB, and HTTPS_PROXY, HTTP_PROXY, NO_PROXY, WES_PROXY_LOOPBACK unless `proxy` is given.
   */
  env?: NodeJS.ProcessEnv;
}

/** The clients the CLI would use: flags, then WES_* environment, then the selected profile, then defaults; the same composition as the CLI's (src/compose/). */
export function createClientsFromConfig(options: ConfigClientOptions = {}): Clients {
  const env = options.env ?? process.env;
  const s = resolveSettings(options.flags ?? {}, env, new ProfileStore(env.WES_CONFIG_DIR || undefined));
  return createClients({ ...options, env, baseUrl: s.baseUrl, routerUrl: s.routerUrl, routerApi: s.routerApi, engineUrl: s.engineUrl, apiKey: s.apiKey, routerToken: s.routerToken, engineKey: s.engineKey, deployment: s.deployment, readTimeoutMs: s.readTimeoutMs });
}
