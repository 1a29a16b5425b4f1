// The job API runs in three deployments that differ where lost-answer recovery lives
// (observations/job-api-v2-deployments.md): a serverless deployment takes a map of labels and
// lists by cursor with label filters; Comfy Cloud takes no labels and has no list (501); the
// self-hosted proxy takes one opaque string and lists one page with `truncated`. The client learns which
// one answers from what it answers (a refusal of `metadata`, a list's shape, a job's labels),
// remembers it per base URL (DeploymentMemory), and a setting (`job_api`) pins it.
import { ApiError } from '../../errors.js';
import { isRecord } from '../shared/response-check.js';
import type { JobApiSetting } from '../../config/keys.js';
import type { LabelDialect } from './labels.js';

export type Deployment = Exclude<JobApiSetting, 'auto'>;

/** How a job list answer reads: one page with `truncated`, cursor pages, or none at all. */
export type ListDialect = 'truncated' | 'cursor' | 'none';

export interface DeploymentDialect {
  labels: LabelDialect;
  list: ListDialect;
  /** What the deployment is called in messages. */
  name: string;
}

export const DIALECTS: Record<Deployment, DeploymentDialect> = {
  serverless: { labels: 'map', list: 'cursor', name: 'a serverless deployment' },
  cloud: { labels: 'none', list: 'none', name: 'Comfy Cloud' },
  'self-hosted': { labels: 'string', list: 'truncated', name: 'the self-hosted job API server' },
};

/** What a refused submit says about the deployment, when it refused the `metadata` it was sent. */
export function deploymentFromRefusal(err: unknown): Deployment | undefined {
  if (!(err instanceof ApiError) || err.origin !== 'jobs' || (err.status !== 422 && err.status !== 400)) return undefined;
  if (err.code === 'metadata_not_supported') return 'cloud';
  if (err.code === 'metadata_invalid') return 'serverless';
  if (err.code === 'invalid_request' && /'metadata' must be a string/.test(err.message)) return 'self-hosted';
  return undefined;
}

/** What a job answer says: serverless jobs carry their deployment and a label map; the proxy echoes its string. */
export function deploymentFromJob(job: unknown): Deployment | undefined {
  if (!isRecord(job)) return undefined;
  if (typeof job.deployment_id === 'string' || isRecord(job.metadata)) return 'serverless';
  if (typeof job.metadata === 'string') return 'self-hosted';
  return undefined;
}

/** Where what was learnt is kept between commands (deployment-cache.ts). */
export interface DeploymentMemory {
  read(baseUrl: string): Promise<Deployment | undefined>;
  write(baseUrl: string, deployment: Deployment): Promise<void>;
}

/** Which deployment a base URL is: pinned by the setting, else remembered, else guessed from the URL, else unknown. */
export class DeploymentKnowledge {
  private known: Deployment | undefined;
  private read = false;

  constructor(
    private readonly baseUrl: string,
    private readonly setting: JobApiSetting = 'auto',
    private readonly memory: DeploymentMemory | null = null,
  ) {
    if (setting !== 'auto') this.known = setting;
  }

  get pinned(): boolean {
    return this.setting !== 'auto';
  }

  async current(): Promise<Deployment | undefined> {
    if (this.known === undefined && !this.read) {
      this.read = true;
      this.known = (await this.memory?.read(this.baseUrl).catch(() => undefined)) ?? guessFromUrl(this.baseUrl);
    }
    return this.known;
  }

  /** Takes what an answer said (a pinned setting stands whatever the answers say). */
  async learn(deployment: Deployment | undefined): Promise<void> {
    // Compared with what is remembered (read once), so an answer that says what the memory holds
    // writes nothing: a fresh process learnt on every submit and list, and rewrote the file.
    if (deployment === undefined || this.pinned || deployment === (await this.current())) return;
    this.known = deployment;
    await this.memory?.write(this.baseUrl, deployment).catch(() => undefined);
  }
}

/** A serverless gateway mounts each deployment under `/deployment/{id}`. */
function guessFromUrl(baseUrl: string): Deployment | undefined {
  try {
    return /\/deployment\/[^/]+\/?$/.test(new URL(baseUrl).pathname) ? 'serverless' : undefined;
  } catch {
    return undefined;
  }
}
