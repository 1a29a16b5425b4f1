// Fills every DevServerOptions default in one place, so the rest of the server reads plain values.
import type { DevServerOptions, DevState } from '../contract.js';
import { DEFAULT_MAX_BODY } from '../http-kit.js';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../protocol/jobs.js';

/** Open event streams per credential the reference self-hosted server allows. */
export const SELF_HOSTED_MAX_STREAMS = 8;

/** The reference self-hosted server's one retention (`_RETENTION`): job `expires_at` and every `url_expires_at`. */
export const SELF_HOSTED_RETENTION_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_API_KEY = 'wes-dev-key';
/** A credential that authenticates on the jobs family but is not entitled to it: the 403 `forbidden` trigger. */
export const DEFAULT_FORBIDDEN_TOKEN = 'wes-dev-forbidden';

export function resolveOptions(given: DevServerOptions): DevState['options'] {
  const deployment = given.deployment ?? 'cloud';
  // A self-hosted deployment is open unless a static token is configured; hosted ones always need a key.
  const apiKey = given.apiKey ?? (deployment === 'self-hosted' ? undefined : DEFAULT_API_KEY);
  return {
    host: given.host ?? '127.0.0.1',
    port: given.port ?? 8188,
    deployment,
    apiKey,
    engineOnly: given.engineOnly ?? false,
    engineVersion: given.engineVersion ?? '0.3.18',
    routerTokens: given.routerTokens ?? [],
    notEnabledTokens: given.notEnabledTokens ?? [],
    forbiddenTokens: given.forbiddenTokens ?? [DEFAULT_FORBIDDEN_TOKEN],
    retentionMs: given.retentionMs ?? (deployment === 'self-hosted' ? SELF_HOSTED_RETENTION_MS : 60 * 60 * 1000),
    // The reference job server's 24 h is its own: the model router beside it keeps its hour.
    routerRetentionMs: given.retentionMs ?? 60 * 60 * 1000,
    stepMs: given.stepMs ?? 40,
    slots: Math.max(1, given.slots ?? 1),
    maxQueue: given.maxQueue ?? 100,
    queueFullRetryAfter: given.queueFullRetryAfter ?? 2, // seconds a client is told to wait on queue_full
    catalogSize: given.catalogSize ?? 60,
    faults: given.faults ?? false,
    urlTtlMs: given.urlTtlMs ?? (deployment === 'self-hosted' ? SELF_HOSTED_RETENTION_MS : 10 * 60 * 1000),
    hashDelayMs: given.hashDelayMs ?? 50,
    keepaliveMs: given.keepaliveMs ?? 15_000,
    deploymentId: given.deploymentId ?? 'dev-deployment',
    releaseId: given.releaseId ?? 'rel-0001',
    deploymentState: given.deploymentState ?? 'ready',
    maxBodyBytes: given.maxBodyBytes ?? DEFAULT_MAX_BODY,
    maxUploadBytes: given.maxUploadBytes ?? 2 * 1024 * 1024 * 1024,
    inactiveKeys: given.inactiveKeys ?? [],
    noCreditKeys: given.noCreditKeys ?? [],
    idempotencyTtlMs: given.idempotencyTtlMs ?? IDEMPOTENCY_KEY_TTL_MS,
    // Serverless deployments page their stored records; the self-hosted proxy lists one page; Comfy Cloud answers 501.
    jobList: given.jobList ?? deployment !== 'cloud',
    maxStreams: given.maxStreams ?? (deployment === 'self-hosted' ? SELF_HOSTED_MAX_STREAMS : 0),
    jobsPort: given.jobsPort,
    logsFormat: given.logsFormat ?? 'json',
    engineState: given.engineState ?? 'up',
    // The reference server forwards a cancel to an engine route ComfyUI 0.3.64 lacks: it changes nothing.
    cancel: given.cancel ?? (deployment === 'self-hosted' ? 'ignored' : 'effective'),
    routerLimits: { inFlight: given.routerLimits?.inFlight ?? 4, spendCents: given.routerLimits?.spendCents ?? 500 },
    names: given.names ?? 'comfy',
    queueUrlPrefix: given.queueUrlPrefix ?? '',
    remoteOrigins: given.remoteOrigins ?? {},
    log: given.log,
  };
}
