// Host-relative links of the jobs API, carrying the mount prefix the request came in on.
import type { RequestContext } from '../contract.js';

export function v2Path(ctx: RequestContext, rest: string): string {
  return `${ctx.mountPrefix}/api/v2/${rest}`;
}

export function jobUrls(ctx: RequestContext, id: string): Record<string, string> {
  const self = v2Path(ctx, `jobs/${encodeURIComponent(id)}`);
  return {
    self,
    events: `${self}/events`,
    cancel: `${self}/cancel`,
    // Only the serverless deployment captures execution logs.
    ...(ctx.state.options.deployment === 'serverless' ? { logs: `${self}/logs` } : {}),
  };
}
