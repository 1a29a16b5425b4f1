// The jobs API (job API v2): the route table for jobs and assets.
import type { RequestContext, RouteHandler } from '../contract.js';
import { assetContent, assetFromHash, blobExists, getAsset, uploadAsset } from '../assets/routes.js';
import { cancelJob, getJob, jobEvents, jobLogs } from './jobs-routes.js';
import { submitJob } from './submit.js';

type Route = [method: string, pattern: string, run: (ctx: RequestContext, param: string) => void | Promise<void>];

const ROUTES: Route[] = [
  ['POST', 'jobs', (ctx) => submitJob(ctx)],
  ['GET', 'jobs/:', getJob],
  ['POST', 'jobs/:/cancel', cancelJob],
  ['GET', 'jobs/:/events', jobEvents],
  ['GET', 'jobs/:/logs', (ctx, id) => jobLogs(ctx, id)],
  ['POST', 'assets', (ctx) => uploadAsset(ctx)],
  ['POST', 'assets/from-hash', (ctx) => assetFromHash(ctx)],
  ['HEAD', 'assets/by-hash/:', blobExists],
  ['GET', 'assets/by-hash/:', blobExists],
  ['GET', 'assets/:', getAsset],
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

export const handleJobsApi: RouteHandler = async (ctx) => {
  if (!ctx.path.startsWith('/api/v2/')) return false;
  // The logs operation exists only where logs are captured; elsewhere it is a routing 404.
  const serverless = ctx.state.options.deployment === 'serverless';
  let segments: string[];
  try {
    segments = ctx.path.slice('/api/v2/'.length).split('/').map(decodeURIComponent);
  } catch {
    return false;
  }
  for (const [method, pattern, run] of ROUTES) {
    if (method !== ctx.req.method) continue;
    if (pattern === 'jobs/:/logs' && !serverless) continue;
    const param = match(pattern, segments);
    if (param === undefined) continue;
    await run(ctx, param ?? '');
    return true;
  }
  return false;
};
