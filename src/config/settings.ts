// Every setting resolves in one order: flag, environment variable, the selected profile, default.
import { UsageError } from '../errors.js';
import { DEFAULT_BASE_URL, ENV_FOR_KEY, FLAG_FOR_KEY, MAKER_ENV_FOR_KEY, MAKER_HOSTED_ORIGINS, PROFILE_KEYS, shownValue, type EngineSetting, type JobApiSetting, type ProfileKey, type RouterApiSetting } from './keys.js';
import { isValidProfileName, type Profile, type ProfileStore } from './store.js';
import { normalizeBaseUrl, parseReadTimeout, SETTING_CHECKS, validateEngine, validateJobApi, validateRouterApi } from './checks.js';

export { DEFAULT_READ_TIMEOUT_S, DEPLOYMENT_ID, normalizeBaseUrl, parseReadTimeout, validateDeployment, validateEngine, validateRouterApi } from './checks.js';

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
  engineKey?: string;
  deployment?: string;
  partnerKey?: string;
  partnerToken?: string;
  readTimeout?: string;
  engine?: string;
  routerApi?: string;
  jobApi?: string;
}

const FLAG_PROP: Record<ProfileKey, Exclude<keyof GlobalFlags, 'baseUrls'>> = {
  base_url: 'baseUrl',
  router_url: 'routerUrl',
  engine_url: 'engineUrl',
  api_key: 'apiKey',
  router_token: 'routerToken',
  engine_key: 'engineKey',
  deployment: 'deployment',
  partner_key: 'partnerKey',
  partner_token: 'partnerToken',
  read_timeout: 'readTimeout',
  engine: 'engine',
  router_api: 'routerApi',
  job_api: 'jobApi',
};

export interface ResolvedValue {
  value: string | undefined;
  source: SettingSource;
  /** The environment variable it came from, when not wes's own (COMFY_API_KEY, COMFY_BASE_URL). */
  variable?: string;
}

export interface Settings {
  profile: string;
  profileSource: SettingSource;
  values: Record<ProfileKey, ResolvedValue>;
  /** Values set aside as they failed their check (only when the command tolerates them: SettingsUse). */
  problems: SettingProblem[];
  /** Base URL of the jobs and legacy APIs, `{deployment}` substituted, no trailing slash. */
  baseUrl: string;
  /** Base URL of the models API (the model router). */
  routerUrl: string;
  /**
   * Base URL of the legacy family (cloud API v1, or a self-hosted engine): the base URL unless
   * `engine_url` is set, as when a self-hosted job API server (base URL) fronts an engine.
   */
  engineUrl: string;
  /**
   * The API key for the base URL's origin (the job API, and the legacy family when the engine URL
   * shares that origin); undefined when a key from COMFY_API_KEY is not meant for that origin.
   */
  apiKey: string | undefined;
  /** The router's credential: `router_token`, else the API key where it may go to the router's origin. */
  routerToken: string | undefined;
  /** The engine's own credential (`engine_key`): the engine URL's origin gets this one, never the API key of another origin. */
  engineKey: string | undefined;
  /** A key from COMFY_API_KEY goes only to these origins (COMFY_BASE_URL's, the maker's hosted service); undefined for any other key. */
  keyOnlyFor: readonly string[] | undefined;
  deployment: string | undefined;
  partnerKey: string | undefined;
  /**
   * The account's auth token for partner nodes (`extra_data.auth_token_comfy_org`): taken by the
   * engine's and the cloud's /api/prompt, never by the job API v2 (its extra_data holds the key alone).
   */
  partnerToken: string | undefined;
  /** Milliseconds without progress before a response is abandoned (0: never). */
  readTimeoutMs: number;
  /** Which v1 server to expect (`auto`: detected on the first v1 call that needs to know). */
  engine: EngineSetting;
  /** Which routes of the model router (`auto`: discovered and remembered per router URL). */
  routerApi: RouterApiSetting;
  /** Which deployment of the job API (`auto`: detected from its answers, remembered per base URL). */
  jobApi: JobApiSetting;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

function checkedProfileName(name: string, from: string): string {
  if (!isValidProfileName(name)) {
    throw new UsageError(`invalid profile name ${JSON.stringify(name)} (from ${from})`, 'use letters, digits, ".", "_" and "-", starting with a letter or digit');
  }
  return name;
}

/** What a command allows of the configured settings (src/commands/verb.ts: a verb's `settingsUse`). */
export interface SettingsUse {
  /**
   * A value from the environment or the profile that fails its check is set aside (the default is
   * used, and `problems` says why) instead of stopping the command: the commands that show and
   * repair settings must run whatever is stored. A flag is always checked: it was typed just now.
   */
  tolerateBadValues?: boolean;
  /** The command creates the profile it is given (`auth login`, `config set`): an unknown name is not a typo. */
  createsProfile?: boolean;
}

/** A stored or given value that failed its check: the error the command would have stopped with. */
export interface SettingProblem {
  key: ProfileKey;
  error: UsageError;
}

export function resolveProfileName(flags: GlobalFlags, env: NodeJS.ProcessEnv, store: ProfileStore | undefined, use: SettingsUse = {}): { name: string; source: SettingSource } {
  const flag = nonEmpty(flags.profile);
  const fromEnv = nonEmpty(env.WES_PROFILE);
  if (flag || fromEnv) {
    const from = flag ? '--profile' : 'WES_PROFILE';
    const name = checkedProfileName((flag ?? fromEnv)!, from);
    if (!use.createsProfile) checkProfileExists(name, from, store);
    return { name, source: flag ? 'flag' : 'env' };
  }
  const current = store?.currentProfile();
  if (current) return { name: current, source: 'profile' };
  return { name: DEFAULT_PROFILE, source: 'default' };
}

/** A profile named by --profile or WES_PROFILE must exist (or be the built-in `default`): a typo must not fall back to the defaults. */
function checkProfileExists(name: string, from: string, store: ProfileStore | undefined): void {
  if (!store || name === DEFAULT_PROFILE || store.hasProfile(name)) return;
  const known = Object.keys(store.profiles());
  const create = `create it with \`wes --profile ${name} auth login\` or \`wes profiles use ${name} --create\``;
  throw new UsageError(`no profile named ${name} (from ${from})`, known.length ? `profiles: ${known.join(', ')}; or ${create}` : create);
}

export const DEFAULT_PROFILE = 'default';

export function resolveValue(key: ProfileKey, flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile): ResolvedValue {
  const flag = nonEmpty(flags[FLAG_PROP[key]]);
  if (flag !== undefined) return { value: flag, source: 'flag' };
  const fromEnv = nonEmpty(env[ENV_FOR_KEY[key]]);
  if (fromEnv !== undefined) return { value: fromEnv, source: 'env' };
  const stored = nonEmpty(profile[key]);
  if (stored !== undefined) return { value: stored, source: 'profile' };
  const variable = MAKER_ENV_FOR_KEY[key];
  // As the maker's SDKs read them: trimmed, and blank counts as unset.
  const fromMaker = variable ? nonEmpty(env[variable]?.trim()) : undefined;
  if (fromMaker !== undefined) return { value: fromMaker, source: 'env', variable };
  return { value: undefined, source: 'default' };
}

/**
 * Where a key read from COMFY_API_KEY may go: the origin of COMFY_BASE_URL and the maker's hosted
 * service, as the maker's SDKs send it; never a server named by wes's own settings (a local engine).
 */
function makerKeyOrigins(env: NodeJS.ProcessEnv): string[] {
  const origins = [...MAKER_HOSTED_ORIGINS];
  try {
    const base = env[MAKER_ENV_FOR_KEY.base_url!]?.trim();
    if (base) origins.unshift(new URL(base).origin);
  } catch {
    // not a URL: it names no origin (and is refused where it is used as the base URL)
  }
  return origins;
}

export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, store: ProfileStore | undefined, use: SettingsUse = {}): Settings {
  const { name, source } = resolveProfileName(flags, env, store, use);
  const profile = store?.profile(name) ?? {};
  const values = Object.fromEntries(PROFILE_KEYS.map((k) => [k, resolveValue(k, flags, env, profile)])) as Record<ProfileKey, ResolvedValue>;
  const problems: SettingProblem[] = [];
  /** Stops the command on a bad value, or (tolerated) records it and goes on with the default. */
  const refuse = (key: ProfileKey, err: unknown): undefined => {
    if (!(err instanceof UsageError)) throw err;
    err.hint = repairHint(key, values[key], name, source, err.hint);
    if (!use.tolerateBadValues || values[key].source === 'flag') throw err;
    problems.push({ key, error: err });
    return undefined;
  };
  const checked = (key: ProfileKey): string | undefined => {
    const v = values[key];
    if (v.value === undefined) return undefined;
    try {
      SETTING_CHECKS[key].check(v.value, describeSource(v, key));
      return v.value;
    } catch (err) {
      return refuse(key, err);
    }
  };
  const deployment = checked('deployment');
  const url = (key: 'base_url' | 'router_url' | 'engine_url', what: string, fallback: string): string => {
    const raw = checked(key);
    if (raw === undefined) return fallback;
    try {
      return normalizeBaseUrl(raw, deployment, `${what} (${describeSource(values[key], key)})`);
    } catch (err) {
      return refuse(key, err) ?? fallback;
    }
  };
  const baseUrl = url('base_url', 'base URL', DEFAULT_BASE_URL);
  const routerUrl = url('router_url', 'router URL', baseUrl);
  const readTimeout = checked('read_timeout');
  const engine = checked('engine');
  const key = checked('api_key');
  const keyOnlyFor = values.api_key.variable ? makerKeyOrigins(env) : undefined;
  const keyFor = (target: string): string | undefined => (!keyOnlyFor || keyOnlyFor.includes(new URL(target).origin) ? key : undefined);
  return {
    profile: name,
    profileSource: source,
    values,
    problems,
    baseUrl,
    routerUrl,
    engineUrl: url('engine_url', 'engine URL', baseUrl),
    apiKey: keyFor(baseUrl),
    routerToken: checked('router_token') ?? keyFor(routerUrl),
    engineKey: checked('engine_key'),
    keyOnlyFor,
    deployment,
    partnerKey: checked('partner_key'),
    partnerToken: checked('partner_token'),
    readTimeoutMs: parseReadTimeout(readTimeout, 'default'),
    engine: validateEngine(engine),
    routerApi: validateRouterApi(checked('router_api')),
    jobApi: validateJobApi(checked('job_api')),
  };
}

/**
 * Where a bad value is mended: the flag as typed, the environment variable, or the profile, with
 * the command that repairs it (which runs whatever else is stored: SettingsUse.tolerateBadValues).
 */
function repairHint(key: ProfileKey, v: ResolvedValue, profile: string, profileSource: SettingSource, hint: string | undefined): string | undefined {
  const example = SETTING_CHECKS[key].example;
  if (v.source === 'flag') return hint;
  const variable = v.variable ?? ENV_FOR_KEY[key];
  if (v.source === 'env') return hint ? `${hint}; in ${variable}, or unset it` : `set ${variable} to a value that does (e.g. ${variable}=${example}), or unset it`;
  const wes = profileSource === 'flag' || profileSource === 'env' ? `wes --profile ${profile}` : 'wes';
  return `repair it with \`${wes} config set ${key} ${example}\`, or remove it with \`${wes} config unset ${key}\``;
}

export function describeSource(v: ResolvedValue, key: ProfileKey): string {
  switch (v.source) {
    case 'flag':
      return FLAG_FOR_KEY[key];
    case 'env':
      return v.variable ?? ENV_FOR_KEY[key];
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
  /** What commands use (masked likewise): the value, else the default or the key it follows; null when nothing. */
  effective: string | null;
  /** Why the value was set aside (it failed its check: SettingsUse.tolerateBadValues). */
  problem?: string;
}

/** What commands use for each key, whether it is set or not: the default, or the setting it follows. */
const IN_EFFECT: Record<ProfileKey, { value: (s: Settings) => string | undefined; unset?: string }> = {
  base_url: { value: (s) => s.baseUrl },
  router_url: { value: (s) => s.routerUrl, unset: 'the base URL' },
  engine_url: { value: (s) => s.engineUrl, unset: 'the base URL' },
  api_key: { value: (s) => s.apiKey },
  router_token: { value: (s) => s.routerToken, unset: 'the API key' },
  engine_key: { value: (s) => s.engineKey },
  deployment: { value: (s) => s.deployment },
  partner_key: { value: (s) => s.partnerKey },
  partner_token: { value: (s) => s.partnerToken },
  read_timeout: { value: (s) => String(s.readTimeoutMs / 1000) },
  engine: { value: (s) => s.engine },
  router_api: { value: (s) => s.routerApi },
  job_api: { value: (s) => s.jobApi },
};

/** Every setting as it may be shown to a person or a script: never a whole secret. */
export function shownSettings(s: Settings): ShownSetting[] {
  return PROFILE_KEYS.map((key) => {
    const v = s.values[key];
    const inEffect = IN_EFFECT[key].value(s);
    const effective = inEffect === undefined ? null : shownValue(key, inEffect);
    const problem = s.problems.find((p) => p.key === key)?.error.message;
    const shown: ShownSetting = v.value === undefined ? { key, value: null, source: null, effective } : { key, value: shownValue(key, v.value), source: describeSource(v, key), effective };
    if (problem) shown.problem = problem;
    return shown;
  });
}

/** Where an effective value comes from, for people: the source, or `default` (what it follows). */
export function effectiveSource(row: ShownSetting): string {
  if (row.problem) return `${row.source} is set aside: default used`;
  if (row.source) return row.source;
  const follows = IN_EFFECT[row.key].unset;
  return row.effective === null ? '' : follows ? `default (${follows})` : 'default';
}
