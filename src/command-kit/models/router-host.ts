// At `wes auth login`: the model router has its own host on the published service, so when the
// base URL's host serves no router (neither the interface's /v1 routes nor the published /v2 ones)
// and no router URL is set, the router's URL is asked for on a terminal (and checked like the
// rest), or said how to give otherwise.
import type { Factory } from '../../factory.js';
import { normalizeBaseUrl, resolveSettings } from '../../config/settings.js';
import type { ProfileKey } from '../../config/keys.js';
import { probeFamily, type ProbeResult } from '../../clients/probe.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { prompt } from '../auth/read-secret.js';

/** What `--with-token` / `--router-token-stdin` say: the credentials come from a pipe, so nothing is asked. */
interface LoginInput {
  withToken?: boolean;
  routerTokenStdin?: boolean;
}

function servesNoRouter(probe: ProbeResult | undefined): boolean {
  return probe !== undefined && probe.router_api === null && probe.verdict === 'error' && (probe.status === 404 || probe.status === 405);
}

/** After login's probes: asks for (or names how to give) the router URL when the probed host serves no router; re-probes the answer. */
export async function askRouterHost(f: Factory, results: ProbeResult[], updates: Partial<Record<ProfileKey, string>>, input: LoginInput): Promise<void> {
  const at = results.findIndex((r) => r.family === 'models');
  if (!servesNoRouter(results[at]) || updates.router_url || f.settings().values.router_url.value) return;
  const host = new URL(results[at]!.url).origin;
  const { io } = f;
  if (!io.stdinIsTTY || !io.stderrIsTTY || input.withToken || input.routerTokenStdin) {
    io.warn(sanitizeLine(`  ! models: ${host} serves no model router; give the router's own URL with --router-url URL (or \`wes config set router_url URL\`)`));
    return;
  }
  const url = await prompt(io, `${host} serves no model router. Router URL (empty: none): `);
  if (!url) return;
  const deployment = updates.deployment ?? f.settings().deployment;
  normalizeBaseUrl(url, deployment, 'router URL');
  updates.router_url = url;
  const flags = { ...f.globals, routerUrl: url, ...(updates.base_url ? { baseUrl: updates.base_url } : {}), ...(updates.deployment ? { deployment: updates.deployment } : {}), ...(updates.api_key ? { apiKey: updates.api_key } : {}), ...(updates.router_token ? { routerToken: updates.router_token } : {}) };
  const settings = resolveSettings(flags, f.env, f.store());
  results[at] = await probeFamily(f.httpFor(settings, f.signal), 'models', { routerApi: settings.routerApi });
}
