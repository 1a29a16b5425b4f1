// `--via PROFILE[:N]` / `--via URL[,N]` and `--base-url URL[,N]` repeated: the endpoints a batch
// spreads its lines over, each with its own concurrency, its own credential and two clients: one
// for submits and reads, one shared by the event streams of its jobs. A profile brings its own
// stored credential; a bare URL gets the command's key (flag, environment or profile) only when its
// origin is the configured base URL's: a key never goes to a server it was not configured for.
import type { HashSetting } from '../../util/blake3-setting.js';
import { UsageError } from '../../errors.js';
import { normalizeBaseUrl, resolveSettings, type Settings } from '../../config/settings.js';
import { withoutPassword } from '../../config/keys.js';
import { lazyDeploymentMemory } from '../../clients/jobs/deployment-memory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { Endpoint } from './endpoint.js';
import { EngineLines, type SaveEngineOutputs } from './engine-lines.js';
import { LegacyClient } from '../../clients/legacy/client.js';
import { jobApiBeside, resolveEngine } from '../../clients/legacy/engine.js';
import { EngineCache } from '../../clients/legacy/engine-cache.js';
import { downloadOutputs } from '../legacy/files.js';
import type { ViaTarget } from './via-target.js';
import type { FeatureContext } from '../context.js';
import type { Reporter } from '../reporter.js';

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
 * key, partner token) only when the URL's origin is the configured base URL's. `withheld` says when one was kept back.
 */
export function urlSettings(base: Settings, url: string, flag = '--via'): { settings: Settings; withheld: boolean } {
  const baseUrl = normalizeBaseUrl(url, base.deployment, `${flag} ${withoutPassword(url)}`);
  // The URL is the whole server: its engine too (the command's engine URL belongs to its own base
  // URL), which keeps the engine key only where it is the command's engine.
  const engineKey = sameOrigin(baseUrl, base.engineUrl) ? base.engineKey : undefined;
  const settings: Settings = { ...base, baseUrl, routerUrl: baseUrl, engineUrl: baseUrl, engineKey };
  if (sameOrigin(baseUrl, base.baseUrl)) return { settings, withheld: false };
  const withheld = base.apiKey !== undefined || base.partnerKey !== undefined || base.partnerToken !== undefined;
  return { settings: { ...settings, apiKey: undefined, routerToken: undefined, partnerKey: undefined, partnerToken: undefined }, withheld };
}

function settingsFor(f: FeatureContext, via: ViaTarget, reporter: Reporter): { name: string; settings: Settings } {
  if (/^https?:\/\//i.test(via.target)) {
    const base = f.settings();
    const flag = via.flag ?? '--via';
    const { settings, withheld } = urlSettings(base, via.target, flag);
    const name = endpointUrl(settings.baseUrl);
    if (withheld) {
      reporter.notice('warn', `${flag} ${name}: sent without the API key, which is configured for ${endpointUrl(base.baseUrl)}; for a server with its own key, make a profile (wes auth login --profile NAME) and use --via NAME`);
    }
    return { name, settings };
  }
  if (!f.store().hasProfile(via.target)) throw new UsageError(`--via ${via.target}: no such profile`, 'see `wes profiles list`; create one with `wes auth login --profile NAME`');
  // A profile's own values: the environment's WES_BASE_URL or WES_API_KEY must not make every endpoint the same.
  return { name: via.target, settings: resolveSettings({ profile: via.target }, {}, f.store()) };
}

/**
 * Whether an endpoint's lines go in as v1 prompts: only when it is a self-hosted ComfyUI engine
 * (the setting, `engine` of its profile or --engine / WES_ENGINE, else detected and cached as
 * `wes legacy` does) and its base URL does not serve the job API v2, which is used wherever it is
 * served, also beside an engine's v1.
 */
async function isEngine(f: FeatureContext, settings: Settings, signal: AbortSignal): Promise<boolean> {
  if (settings.engine === 'cloud') return false;
  const http = f.httpFor(settings, signal, 1);
  const cache = new EngineCache(f.store(), settings.profile);
  try {
    const identity = await resolveEngine(http, settings.engine, cache);
    return identity.kind === 'self-hosted' && !(await jobApiBeside(http, identity, cache));
  } catch {
    return false; // not reachable now: taken as the job API; its lines fail there and it is set aside
  }
}

/** Saves an engine prompt's output files as `wes legacy prompt --download` does. */
const engineOutputsSaver =
  (hashing: HashSetting): SaveEngineOutputs =>
  async (client, refs, dir) => {
    const saved: Awaited<ReturnType<SaveEngineOutputs>> = [];
    await downloadOutputs(client, refs, dir, (file, ref) => saved.push({ ref, path: file.path, hash: file.hash, verified: file.verified }), { hashing });
    return saved;
  };

export interface EndpointPlan {
  concurrency: number;
  signal: AbortSignal;
  /** Whether job API endpoints wake their follows with the event stream. */
  events: boolean;
  /** How often an engine's queue is read for its prompts. */
  intervalMs: number;
}

/**
 * The endpoints of this run: every --via and repeated --base-url, or the command's own settings.
 * A self-hosted ComfyUI engine gets its lines as v1 prompts. Clients abort with the plan's signal
 * and keep enough connections for their lines and the lines' event streams.
 */
export async function buildEndpoints(f: FeatureContext, vias: ViaTarget[], plan: EndpointPlan, reporter: Reporter): Promise<Endpoint[]> {
  const { concurrency, signal, events } = plan;
  const targets = vias.length ? vias.map((v) => ({ ...settingsFor(f, v, reporter), concurrency: v.concurrency ?? concurrency })) : [{ name: f.settings().profile, settings: f.settings(), concurrency }];
  const seen = new Set<string>();
  for (const { name, settings } of targets) {
    const url = endpointUrl(settings.baseUrl);
    if (seen.has(url)) throw new UsageError(`--via ${name}: ${url} is already an endpoint of this batch`, 'give each server once, with the concurrency it should get (PROFILE:N)');
    seen.add(url);
  }
  const engines = await Promise.all(targets.map((t) => isEngine(f, t.settings, signal)));
  return targets.map(({ name, settings, concurrency: n }, i) => {
    const url = endpointUrl(settings.baseUrl);
    const connections = n + 8;
    const http = f.httpFor(settings, signal, connections);
    const client = new JobsClient(http);
    client.useDeployment(settings.jobApi, lazyDeploymentMemory(f.store(), settings.profile));
    const spec = { name, url, client, concurrency: n, partnerKey: settings.partnerKey, partnerToken: settings.partnerToken };
    if (engines[i]) return new Endpoint({ ...spec, engine: new EngineLines(new LegacyClient(http), http, plan.intervalMs, signal, engineOutputsSaver(f.hashing())) });
    const streams = events ? new JobsClient(f.httpFor(settings, signal, connections)) : undefined;
    const openEvents = streams ? Object.assign(() => streams, { shared: true }) : undefined;
    return new Endpoint({ ...spec, openEvents });
  });
}
