// The settings a profile can hold, with their flag and environment names (the settings table of README.md, "Configuration").
export const PROFILE_KEYS = [
  'base_url',
  'router_url',
  'engine_url',
  'api_key',
  'router_token',
  'engine_key',
  'deployment',
  'partner_key',
  'partner_token',
  'read_timeout',
  'engine',
  'router_api',
  'job_api',
] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

/** The settings that hold a base URL. */
export const URL_KEYS: ReadonlySet<ProfileKey> = new Set(['base_url', 'router_url', 'engine_url']);

export const SECRET_KEYS: ReadonlySet<ProfileKey> = new Set(['api_key', 'router_token', 'engine_key', 'partner_key', 'partner_token']);

export const ENV_FOR_KEY: Record<ProfileKey, string> = {
  base_url: 'WES_BASE_URL',
  router_url: 'WES_ROUTER_URL',
  engine_url: 'WES_ENGINE_URL',
  api_key: 'WES_API_KEY',
  router_token: 'WES_ROUTER_TOKEN',
  engine_key: 'WES_ENGINE_KEY',
  deployment: 'WES_DEPLOYMENT',
  partner_key: 'WES_PARTNER_KEY',
  partner_token: 'WES_PARTNER_TOKEN',
  read_timeout: 'WES_READ_TIMEOUT',
  engine: 'WES_ENGINE',
  router_api: 'WES_ROUTER_API',
  job_api: 'WES_JOB_API',
};

export const FLAG_FOR_KEY: Record<ProfileKey, string> = {
  base_url: '--base-url',
  router_url: '--router-url',
  engine_url: '--engine-url',
  api_key: '--api-key',
  router_token: '--router-token',
  engine_key: '--engine-key',
  deployment: '--deployment',
  partner_key: '--partner-key',
  partner_token: '--partner-token',
  read_timeout: '--read-timeout',
  engine: '--engine',
  router_api: '--router-api',
  job_api: '--job-api',
};

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8188';

/**
 * The maker's own environment names, which users of its SDKs already export: read when neither
 * the flag, wes's own variable nor the profile sets the value (a key saved for wes wins).
 */
export const MAKER_ENV_FOR_KEY: Partial<Record<ProfileKey, string>> = { base_url: 'COMFY_BASE_URL', api_key: 'COMFY_API_KEY' };

/**
 * The maker's hosted service (its job API and its model router): besides the origin of
 * COMFY_BASE_URL, the only place a key found in COMFY_API_KEY is sent.
 */
export const MAKER_HOSTED_ORIGINS: readonly string[] = ['https://cloud.comfy.org', 'https://api.comfy.org'];

/** Which v1 server the base URL is: the hosted cloud API, a self-hosted ComfyUI engine, or detected. */
export const ENGINE_KINDS = ['auto', 'cloud', 'self-hosted'] as const;
export type EngineSetting = (typeof ENGINE_KINDS)[number];

/** Which routes of the model router: the interface's `/v1`, the published `/v2`, or detected (`auto`). */
export const ROUTER_API_SETTINGS = ['auto', 'v1', 'v2'] as const;
export type RouterApiSetting = (typeof ROUTER_API_SETTINGS)[number];

/** Which deployment of the job API the base URL is (its dialect: labels, job list), or detected (`auto`). */
export const JOB_API_SETTINGS = ['auto', 'serverless', 'cloud', 'self-hosted'] as const;
export type JobApiSetting = (typeof JOB_API_SETTINGS)[number];

export function isProfileKey(key: string): key is ProfileKey {
  return (PROFILE_KEYS as readonly string[]).includes(key);
}

/** How a setting is shown: secrets masked, a password inside a URL redacted. */
export function shownValue(key: ProfileKey, value: string): string {
  if (SECRET_KEYS.has(key)) return maskSecret(value);
  return URL_KEYS.has(key) ? withoutPassword(value) : value;
}

/** A URL with any userinfo password replaced (text that does not parse is shown as is). */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = 'REDACTED';
    return u.toString();
  } catch {
    // Not a URL, but it may still look like one: hide anything between '//user:' and '@'.
    return url.replace(/(\/\/[^/:@\s]*:)[^@/\s]*@/g, '$1REDACTED@');
  }
}

/**
 * The last 4 characters and the length; short secrets only their length. Four characters are
 * enough to tell two keys apart, and (unlike a prefix such as `sk-t`) say nothing shared by all keys.
 */
export function maskSecret(secret: string): string {
  if (secret.length < 16) return `${'*'.repeat(Math.min(secret.length, 8))} (${secret.length} chars)`;
  return `…${secret.slice(-4)} (${secret.length} chars)`;
}
