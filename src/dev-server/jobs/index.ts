// The jobs API (job API v2): the route table for jobs and assets.
import type { RequestContext, RouteHandler } from '../contract.js';
import { assetContent, assetFromHash, blobExists, deleteAsset, getAsset } from '../assets/routes.js';
import { uploadAsset } from '../assets/upload.js';
import { health, isHealthCheck } from './health.js';
import { cancelJob, getJob, jobEvents, jobLogs, jobWorkflow } from './jobs-routes.js';
import { listJobs } from './list.js';
import { listDialect } from './dialect.js';
import { submitJob } from './submit.js';

type Route = [method: string, pattern: string, run: (ctx: RequestContext, param: string) => void | Promise<void>];

const ROUTES: Route[] = [
  ['POST', 'jobs', (ctx) => submitJob(ctx)],
  ['GET', 'jobs', (ctx) => listJobs(ctx)],
  ['GET', 'jobs/:', getJob],
  ['POST', 'jobs/:/cancel', cancelJob],
  ['GET', 'jobs/:/events', jobEvents],
  ['GET', 'jobs/:/logs', (ctx, id) => jobLogs(ctx, id)],
  ['GET', 'jobs/:/workflow', jobWorkflow],
  ['POST', 'assets', (ctx) => uploadAsset(ctx)],
  ['POST', 'assets/from-hash', (ctx) => assetFromHash(ctx)],
  ['HEAD', 'assets/by-hash/:', blobExists],
  ['GET', 'assets/:', getAsset],
  ['DELETE', 'assets/:', deleteAsset],
  ['GET', 'assets/:/content', assetContent],
];

function match(pattern: string, segments: string[]): string | null | undefined {
  const parts = pattern.split('/');
  if (parts.length !== segments.length) return undefined;
  let param: string | null = null;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === ':') param = segments[i]!;
    else if (parts[i] !== segments[i]) return undefined;
  }
  return param;
}

/** Routes a deployment lacks answer as unknown paths (a routing 404). */
function served(ctx: RequestContext, pattern: string): boolean {
  const { deployment } = ctx.state.options;
  // The logs operation exists only where logs are captured.
  if (pattern === 'jobs/:/logs') return deployment === 'serverless';
  if (pattern === 'jobs' && ctx.req.method === 'GET') return listDialect(ctx) !== 'none';
  return true;
}

export const handleJobsApi: RouteHandler = async (ctx) => {
  if (!ctx.path.startsWith('/api/v2/')) return false;
  if (isHealthCheck(ctx)) {
    health(ctx);
    return true;
  }
  let segments: string[];
  try {
    segments = ctx.path.slice('/api/v2/'.length).split('/').map(decodeURIComponent);
  } catch {
    return false;
  }
  for (const [method, pattern, run] of ROUTES) {
    if (method !== ctx.req.method || !served(ctx, pattern)) continue;
    const param = match(pattern, segments);
    if (param === undefined) continue;
    await run(ctx, param ?? '');
    return true;
  }
  return false;
};
