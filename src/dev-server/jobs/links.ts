// Links of the jobs API: host-relative with the mount prefix the request came in on (hosted
// deployments), or absolute on the request's own origin (the reference self-hosted server).
import type { RequestContext } from '../contract.js';
import type { JobUrls } from '../../protocol/jobs.js';

export function isSelfHosted(ctx: RequestContext): boolean {
  return ctx.state.options.deployment === 'self-hosted';
}

export function v2Path(ctx: RequestContext, rest: string): string {
  return `${ctx.mountPrefix}/api/v2/${rest}`;
}

/** A link to `rest` as this deployment writes links. */
export function v2Link(ctx: RequestContext, rest: string): string {
  return isSelfHosted(ctx) ? `${ctx.origin}${v2Path(ctx, rest)}` : v2Path(ctx, rest);
}

export function jobUrls(ctx: RequestContext, id: string): JobUrls {
  const self = v2Link(ctx, `jobs/${encodeURIComponent(id)}`);
  return {
    self,
    events: `${self}/events`,
    cancel: `${self}/cancel`,
    // Only the serverless deployment captures execution logs.
    ...(ctx.state.options.deployment === 'serverless' ? { logs: `${self}/logs` } : {}),
  };
}
