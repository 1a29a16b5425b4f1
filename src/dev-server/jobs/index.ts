// The jobs API (job API v2): the route table for jobs and assets.
import type { RequestContext, RouteHandler } from '../contract.js';
import { assetContent, assetFromHash, blobExists, deleteAsset, getAsset } from '../assets/routes.js';
import { uploadAsset } from '../assets/upload.js';
import { HEALTH_PATH, health, isHealthCheck } from './health.js';
import { sendBare, sendPlainPage } from '../self-hosted/plain.js';
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

/**
 * The methods a route answers. On the self-hosted deployment every GET route answers HEAD too
 * (aiohttp's `add_get`): the GET's status and headers, Content-Length included, without the body.
 */
function methodsOf(ctx: RequestContext, method: string): string[] {
  return method === 'GET' && ctx.state.options.deployment === 'self-hosted' ? ['GET', 'HEAD'] : [method];
}

/**
 * The self-hosted answer to a path no route takes: the reference server's (aiohttp's) plain-text
 * 405 with `Allow` (its methods sorted) when the path is a route for other methods, else its plain
 * `404: Not Found`; an empty segment (a trailing slash) is no route.
 */
function sendUnrouted(ctx: RequestContext, segments: string[]): void {
  const allowed = new Set<string>();
  if (!segments.includes('')) {
    for (const [method, pattern] of ROUTES) {
      if (served(ctx, pattern) && match(pattern, segments) !== undefined) for (const m of methodsOf(ctx, method)) allowed.add(m);
    }
  }
  if (allowed.size === 0) return sendPlainPage(ctx, 404);
  // aiohttp answers OPTIONS on a route (no CORS preflight asked) with an empty 200 and no Allow.
  if (ctx.req.method === 'OPTIONS') return sendBare(ctx, 200);
  sendPlainPage(ctx, 405, { allow: [...allowed].sort().join(',') });
}

export const handleJobsApi: RouteHandler = async (ctx) => {
  if (ctx.path === '/api/v2' && ctx.state.options.deployment === 'self-hosted') {
    sendPlainPage(ctx, 404);
    return true;
  }
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
  const selfHosted = ctx.state.options.deployment === 'self-hosted';
  if (selfHosted && ctx.path === HEALTH_PATH) {
    sendPlainPage(ctx, 405, { allow: 'GET,HEAD' });
    return true;
  }
  for (const [method, pattern, run] of ROUTES) {
    if (!methodsOf(ctx, method).includes(ctx.req.method ?? '') || !served(ctx, pattern)) continue;
    if (selfHosted && segments.includes('')) continue;
    const param = match(pattern, segments);
    if (param === undefined) continue;
    await run(ctx, param ?? '');
    return true;
  }
  if (!selfHosted) return false;
  sendUnrouted(ctx, segments);
  return true;
};
