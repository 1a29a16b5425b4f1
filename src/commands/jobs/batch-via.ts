// `--via PROFILE[:N]` / `--via URL[,N]` (repeatable): the endpoints a batch spreads its lines over,
// each with its own concurrency, its own credential (a profile's own, as stored) and two clients:
// one for submits and reads, one shared by the event streams of its jobs.
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

function settingsFor(f: Factory, via: ViaTarget): { name: string; settings: Settings } {
  if (/^https?:\/\//i.test(via.target)) {
    const base = f.settings();
    const baseUrl = normalizeBaseUrl(via.target, base.deployment, `--via ${withoutPassword(via.target)}`);
    return { name: endpointUrl(baseUrl), settings: { ...base, baseUrl, routerUrl: baseUrl } };
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
    return new Endpoint({ name, url, client, openEvents, concurrency: n });
  });
}
