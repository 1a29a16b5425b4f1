// `--via PROFILE[:N]` / `--via URL[,N]` and `--base-url URL[,N]` repeated: the endpoints a batch
// spreads its lines over, each with its own concurrency, its own credential and two clients: one
// for submits and reads, one shared by the event streams of its jobs. A profile brings its own
// stored credential; a bare URL gets the command's key (flag, environment or profile) only when its
// origin is the configured base URL's: a key never goes to a server it was not configured for.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { normalizeBaseUrl, resolveSettings, type Settings } from '../../config/settings.js';
import { withoutPassword } from '../../config/keys.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { Endpoint } from '../../clients/jobs/batch-endpoints.js';
import type { ViaTarget } from './via-target.js';

/** Where a line went, as the journal records it: the base URL without credentials. */
export function endpointUrl(baseUrl: string): string {
  const u = new URL(baseUrl);
  u.username = '';
  u.password = '';
  return u.toString().replace(/\/+$/, '');
}

/** Whether two base URLs share scheme, host and port. */
export function sameOrigin(a: string, b: string): boolean {
  return new URL(a).origin === new URL(b).origin;
}

/**
 * A bare URL's settings: the command's own, with its credentials (API key, router token, partner
 * key) only when the URL's origin is the configured base URL's. `withheld` says when one was kept back.
 */
export function urlSettings(base: Settings, url: string, flag = '--via'): { settings: Settings; withheld: boolean } {
  const baseUrl = normalizeBaseUrl(url, base.deployment, `${flag} ${withoutPassword(url)}`);
  const settings: Settings = { ...base, baseUrl, routerUrl: baseUrl };
  if (sameOrigin(baseUrl, base.baseUrl)) return { settings, withheld: false };
  const withheld = base.apiKey !== undefined || base.partnerKey !== undefined;
  return { settings: { ...settings, apiKey: undefined, routerToken: undefined, partnerKey: undefined }, withheld };
}

function settingsFor(f: Factory, via: ViaTarget): { name: string; settings: Settings } {
  if (/^https?:\/\//i.test(via.target)) {
    const base = f.settings();
    const flag = via.flag ?? '--via';
    const { settings, withheld } = urlSettings(base, via.target, flag);
    const name = endpointUrl(settings.baseUrl);
    if (withheld) {
      f.io.warn(`${flag} ${name}: sent without the API key, which is configured for ${endpointUrl(base.baseUrl)}; for a server with its own key, make a profile (wes auth login --profile NAME) and use --via NAME`);
    }
    return { name, settings };
  }
  if (!f.store().hasProfile(via.target)) throw new UsageError(`--via ${via.target}: no such profile`, 'see `wes profiles list`; create one with `wes auth login --profile NAME`');
  // A profile's own values: the environment's WES_BASE_URL or WES_API_KEY must not make every endpoint the same.
  return { name: via.target, settings: resolveSettings({ profile: via.target }, {}, f.store()) };
}

/**
 * The endpoints of this run: every --via, or the command's own settings. Their clients abort with
 * `signal` and keep enough connections for their lines and the lines' event streams.
 */
export function buildEndpoints(f: Factory, vias: ViaTarget[], concurrency: number, signal: AbortSignal, events: boolean): Endpoint[] {
  const targets = vias.length ? vias.map((v) => ({ ...settingsFor(f, v), concurrency: v.concurrency ?? concurrency })) : [{ name: f.settings().profile, settings: f.settings(), concurrency }];
  const seen = new Set<string>();
  return targets.map(({ name, settings, concurrency: n }) => {
    const url = endpointUrl(settings.baseUrl);
    if (seen.has(url)) throw new UsageError(`--via ${name}: ${url} is already an endpoint of this batch`, 'give each server once, with the concurrency it should get (PROFILE:N)');
    seen.add(url);
    const connections = n + 8;
    const client = new JobsClient(f.httpFor(settings, signal, connections));
    const streams = events ? new JobsClient(f.httpFor(settings, signal, connections)) : undefined;
    const openEvents = streams ? Object.assign(() => streams, { shared: true }) : undefined;
    return new Endpoint({ name, url, client, openEvents, concurrency: n, partnerKey: settings.partnerKey });
  });
}
