// Every setting resolves in one order: flag, environment variable, the selected profile, default.
import { UsageError } from '../errors.js';
import { DEFAULT_BASE_URL, ENGINE_KINDS, ENV_FOR_KEY, FLAG_FOR_KEY, PROFILE_KEYS, ROUTER_API_SETTINGS, shownValue, withoutPassword, type EngineSetting, type ProfileKey, type RouterApiSetting } from './keys.js';
import { isValidProfileName, type Profile, type ProfileStore } from './store.js';

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  /** --base-url given more than once: every value in order, and no `baseUrl` (only `jobs submit --batch` takes them). */
  baseUrls?: string[];
  routerUrl?: string;
  engineUrl?: string;
  apiKey?: string;
  routerToken?: string;
  deployment?: string;
  partnerKey?: string;
  readTimeout?: string;
  engine?: string;
  routerApi?: string;
}

const FLAG_PROP: Record<ProfileKey, Exclude<keyof GlobalFlags, 'baseUrls'>> = {
  base_url: 'baseUrl',
  router_url: 'routerUrl',
  engine_url: 'engineUrl',
  api_key: 'apiKey',
  router_token: 'routerToken',
  deployment: 'deployment',
  partner_key: 'partnerKey',
  read_timeout: 'readTimeout',
  engine: 'engine',
  router_api: 'routerApi',
};

export interface ResolvedValue {
  value: string | undefined;
  source: SettingSource;
}

export interface Settings {
  profile: string;
  profileSource: SettingSource;
  values: Record<ProfileKey, ResolvedValue>;
  /** Base URL of the jobs and legacy APIs, `{deployment}` substituted, no trailing slash. */
  baseUrl: string;
  /** Base URL of the models API (the model router). */
  routerUrl: string;
  /**
   * Base URL of the legacy family (cloud API v1, or a self-hosted engine): the base URL unless
   * `engine_url` is set, as when a self-hosted job API server (base URL) fronts an engine.
   */
  engineUrl: string;
  apiKey: string | undefined;
  routerToken: string | undefined;
  deployment: string | undefined;
  partnerKey: string | undefined;
  /** Milliseconds without progress before a response is abandoned (0: never). */
  readTimeoutMs: number;
  /** Which v1 server to expect (`auto`: detected on the first v1 call that needs to know). */
  engine: EngineSetting;
  /** Which routes of the model router (`auto`: discovered and remembered per router URL). */
  routerApi: RouterApiSetting;
}

export const DEPLOYMENT_ID = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

function checkedProfileName(name: string, from: string): string {
  if (!isValidProfileName(name)) {
    throw new UsageError(`invalid profile name ${JSON.stringify(name)} (from ${from})`, 'use letters, digits, ".", "_" and "-", starting with a letter or digit');
  }
  return name;
}

export function resolveProfileName(flags: GlobalFlags, env: NodeJS.ProcessEnv, store: ProfileStore | undefined): { name: string; source: SettingSource } {
  const flag = nonEmpty(flags.profile);
  if (flag) return { name: checkedProfileName(flag, '--profile'), source: 'flag' };
  const fromEnv = nonEmpty(env.WES_PROFILE);
  if (fromEnv) return { name: checkedProfileName(fromEnv, 'WES_PROFILE'), source: 'env' };
  const current = store?.currentProfile();
  if (current) return { name: current, source: 'profile' };
  return { name: 'default', source: 'default' };
}

export function resolveValue(key: ProfileKey, flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile): ResolvedValue {
  const flag = nonEmpty(flags[FLAG_PROP[key]]);
  if (flag !== undefined) return { value: flag, source: 'flag' };
  const fromEnv = nonEmpty(env[ENV_FOR_KEY[key]]);
  if (fromEnv !== undefined) return { value: fromEnv, source: 'env' };
  const stored = nonEmpty(profile[key]);
  if (stored !== undefined) return { value: stored, source: 'profile' };
  return { value: undefined, source: 'default' };
}

/** Validates a base URL and substitutes `{deployment}`; returns it without a trailing slash. */
export function normalizeBaseUrl(raw: string, deployment: string | undefined, what: string): string {
  const shown = withoutPassword(raw);
  let text = raw;
  if (text.includes('{deployment}')) {
    if (!deployment) {
      throw new UsageError(`${what} ${shown} contains {deployment} but no deployment id is set`, 'pass --deployment ID or set WES_DEPLOYMENT');
    }
    text = text.replaceAll('{deployment}', deployment);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${what} is not a valid URL: ${shown}`, 'use a full URL such as https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${what} must use http or https: ${shown}`);
  }
  if (url.search || url.hash) throw new UsageError(`${what} must not carry a query or fragment: ${shown}`);
  return url.toString().replace(/\/+$/, '');
}

export function validateDeployment(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  if (!DEPLOYMENT_ID.test(id)) {
    throw new UsageError(
      `deployment id ${JSON.stringify(id)} is not a DNS label`,
      'use 1-63 lowercase letters, digits and hyphens, starting and ending with a letter or digit',
    );
  }
  return id;
}

export const DEFAULT_READ_TIMEOUT_S = 30;

/** Seconds (0 turns the read timeout off) into milliseconds; `from` names where the value came from. */
export function parseReadTimeout(value: string | undefined, from: string): number {
  if (value === undefined) return DEFAULT_READ_TIMEOUT_S * 1000;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 86_400) {
    throw new UsageError(`read timeout ${JSON.stringify(value.slice(0, 40))} (from ${from}) is not a number of seconds from 0 to 86400`, 'e.g. --read-timeout 60; 0 waits without limit');
  }
  return Math.round(n * 1000);
}

export function validateEngine(value: string | undefined, from = '--engine'): EngineSetting {
  if (value === undefined) return 'auto';
  if ((ENGINE_KINDS as readonly string[]).includes(value)) return value as EngineSetting;
  throw new UsageError(`${from} must be one of ${ENGINE_KINDS.join(', ')}, got ${JSON.stringify(value)}`, 'cloud for the hosted cloud API, self-hosted for your own ComfyUI, auto to detect it');
}

export function validateRouterApi(value: string | undefined, from = '--router-api'): RouterApiSetting {
  if (value === undefined) return 'auto';
  if ((ROUTER_API_SETTINGS as readonly string[]).includes(value)) return value as RouterApiSetting;
  throw new UsageError(`${from} must be one of ${ROUTER_API_SETTINGS.join(', ')}, got ${JSON.stringify(value)}`, 'v1 for the interface\'s /v1/models routes, v2 for the published /v2/models routes, auto to discover them');
}

export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, store: ProfileStore | undefined): Settings {
  const { name, source } = resolveProfileName(flags, env, store);
  const profile = store?.profile(name) ?? {};
  const values = Object.fromEntries(PROFILE_KEYS.map((k) => [k, resolveValue(k, flags, env, profile)])) as Record<ProfileKey, ResolvedValue>;
  const deployment = validateDeployment(values.deployment.value);
  const baseUrl = normalizeBaseUrl(values.base_url.value ?? DEFAULT_BASE_URL, deployment, `base URL (${describeSource(values.base_url, 'base_url')})`);
  const routerUrl = values.router_url.value
    ? normalizeBaseUrl(values.router_url.value, deployment, `router URL (${describeSource(values.router_url, 'router_url')})`)
    : baseUrl;
  const engineUrl = values.engine_url.value
    ? normalizeBaseUrl(values.engine_url.value, deployment, `engine URL (${describeSource(values.engine_url, 'engine_url')})`)
    : baseUrl;
  return {
    profile: name,
    profileSource: source,
    values,
    baseUrl,
    routerUrl,
    engineUrl,
    apiKey: values.api_key.value,
    routerToken: values.router_token.value ?? values.api_key.value,
    deployment,
    partnerKey: values.partner_key.value,
    readTimeoutMs: parseReadTimeout(values.read_timeout.value, describeSource(values.read_timeout, 'read_timeout')),
    engine: validateEngine(values.engine.value, describeSource(values.engine, 'engine')),
    routerApi: validateRouterApi(values.router_api.value, describeSource(values.router_api, 'router_api')),
  };
}

export function describeSource(v: ResolvedValue, key: ProfileKey): string {
  switch (v.source) {
    case 'flag':
      return FLAG_FOR_KEY[key];
    case 'env':
      return ENV_FOR_KEY[key];
    case 'profile':
      return `profile key ${key}`;
    default:
      return 'default';
  }
}

export interface ShownSetting {
  key: ProfileKey;
  /** Secrets masked, URL passwords redacted; null when unset. */
  value: string | null;
  /** Where the value came from (`--api-key`, `WES_API_KEY`, `profile key api_key`); null when unset. */
  source: string | null;
}

/** Every setting as it may be shown to a person or a script: never a whole secret. */
export function shownSettings(s: Settings): ShownSetting[] {
  return PROFILE_KEYS.map((key) => {
    const v = s.values[key];
    return v.value === undefined ? { key, value: null, source: null } : { key, value: shownValue(key, v.value), source: describeSource(v, key) };
  });
}
