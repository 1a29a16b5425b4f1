// What each setting's value must be: one check per key, applied when a value is set (`config set`,
// `auth login`) and when it is resolved (flag, environment, profile). A key added to PROFILE_KEYS
// needs its line in SETTING_CHECKS (the Record type says so).
import { UsageError } from '../errors.js';
import { ENGINE_KINDS, JOB_API_SETTINGS, ROUTER_API_SETTINGS, withoutPassword, type EngineSetting, type JobApiSetting, type ProfileKey, type RouterApiSetting } from './keys.js';

export interface SettingCheck {
  /** Throws a UsageError naming the value and `from` (where it came from) when it will not do. */
  check(value: string, from: string): void;
  /** A value that does, for the repair command a hint names. */
  example: string;
}

export const DEPLOYMENT_ID = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Validates a base URL and substitutes `{deployment}`; returns it without a trailing slash. Text
 * without a scheme (`localhost:8188`, `api.example.com`) is refused with the URL it was probably meant to be.
 */
export function normalizeBaseUrl(raw: string, deployment: string | undefined, what: string): string {
  const shown = withoutPassword(raw);
  let text = raw;
  if (text.includes('{deployment}')) {
    if (!deployment) {
      throw new UsageError(`${what} ${shown} contains {deployment} but no deployment id is set`, 'pass --deployment ID or set WES_DEPLOYMENT');
    }
    text = text.replaceAll('{deployment}', deployment);
  }
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const withScheme = schemeless(text) ? `http://${shown}` : undefined;
    if (withScheme) throw new UsageError(`${what} ${shown} has no scheme`, `write it as a full URL: ${withScheme} (or https://… for a TLS server)`);
    if (!url) throw new UsageError(`${what} is not a valid URL: ${shown}`, 'use a full URL such as https://api.example.com');
    throw new UsageError(`${what} must use http or https: ${shown}`);
  }
  if (url.search || url.hash) throw new UsageError(`${what} must not carry a query or fragment: ${shown}`);
  return url.toString().replace(/\/+$/, '');
}

/** `host:port`, `host` or `host/path` without `scheme://`: what a URL missing its scheme looks like. */
function schemeless(text: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return false;
  try {
    const url = new URL(`http://${text}`);
    return url.hostname !== '' && (url.hostname === 'localhost' || url.hostname.includes('.') || url.hostname.startsWith('['));
  } catch {
    return false;
  }
}

export function validateDeployment(id: string | undefined, from?: string): string | undefined {
  if (id === undefined) return undefined;
  if (!DEPLOYMENT_ID.test(id)) {
    throw new UsageError(
      `deployment id ${JSON.stringify(id)}${from ? ` (from ${from})` : ''} is not a DNS label`,
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

export function validateJobApi(value: string | undefined, from = '--job-api'): JobApiSetting {
  if (value === undefined) return 'auto';
  if ((JOB_API_SETTINGS as readonly string[]).includes(value)) return value as JobApiSetting;
  throw new UsageError(`${from} must be one of ${JOB_API_SETTINGS.join(', ')}, got ${JSON.stringify(value)}`, 'serverless for a serverless deployment, cloud for Comfy Cloud, self-hosted for the self-hosted job API server, auto to detect it');
}

/** A URL setting as stored: `{deployment}` may wait for the deployment id, which is checked when resolved. */
function urlCheck(what: string): SettingCheck['check'] {
  return (value, from) => void normalizeBaseUrl(value, value.includes('{deployment}') ? 'placeholder' : undefined, `${what} (${from})`);
}

/**
 * A secret that travels in a header (`header`) or in a JSON body: no control characters (a pasted
 * line break), and for a header only Latin-1, which is all HTTP carries. Never echoed.
 */
function secretCheck(what: string, header: boolean): SettingCheck['check'] {
  return (value, from) => {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`${what} (from ${from}) holds a control character (a line break pasted with it?)`, 'give the key alone, on one line');
    if (header && /[^\u0000-\u00ff]/.test(value)) throw new UsageError(`${what} (from ${from}) holds characters an HTTP header cannot carry`, 'check that it was copied whole and nothing else with it');
  };
}

export const SETTING_CHECKS: Record<ProfileKey, SettingCheck> = {
  base_url: { check: urlCheck('base URL'), example: 'https://api.example.com' },
  router_url: { check: urlCheck('router URL'), example: 'https://router.example.com' },
  engine_url: { check: urlCheck('engine URL'), example: 'http://127.0.0.1:8188' },
  api_key: { check: secretCheck('the API key', true), example: 'KEY' },
  router_token: { check: secretCheck('the router credential', true), example: 'TOKEN' },
  engine_key: { check: secretCheck('the engine key', true), example: 'KEY' },
  deployment: { check: (value, from) => void validateDeployment(value, from), example: 'my-deployment' },
  partner_key: { check: secretCheck('the partner key', false), example: 'KEY' },
  partner_token: { check: secretCheck('the partner token', false), example: 'TOKEN' },
  read_timeout: { check: (value, from) => void parseReadTimeout(value, from), example: String(DEFAULT_READ_TIMEOUT_S) },
  engine: { check: (value, from) => void validateEngine(value, from), example: 'auto' },
  router_api: { check: (value, from) => void validateRouterApi(value, from), example: 'auto' },
  job_api: { check: (value, from) => void validateJobApi(value, from), example: 'auto' },
};
