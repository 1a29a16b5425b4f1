// One `--via` value, `PROFILE[:N]` or `URL[,N]`: parsed as commander reads the command line
// (so it stays light: no client code), written back the same way for a resume command.
import { UsageError } from '../../errors.js';
import { isValidProfileName } from '../../config/store.js';
import { withoutPassword } from '../../config/keys.js';

export const MAX_CONCURRENCY = 256;

export interface ViaTarget {
  /** A profile name, or a base URL. */
  target: string;
  concurrency?: number;
  /** The flag it came from, for messages (--via when absent). */
  flag?: '--via' | '--base-url';
}

function parseCount(text: string, what: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_CONCURRENCY) throw new UsageError(`${what}: the concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${text}`);
  return n;
}

function parseUrlTarget(value: string, flag: '--via' | '--base-url'): ViaTarget {
  const comma = value.lastIndexOf(',');
  const target: ViaTarget = flag === '--via' ? { target: value } : { target: value, flag };
  if (comma < 0) return target;
  return { ...target, target: value.slice(0, comma), concurrency: parseCount(value.slice(comma + 1), `${flag} ${withoutPassword(value)}`) };
}

/** Parses one value of a repeated --base-url (jobs submit --batch): `URL` or `URL,N`. */
export function parseBaseUrlTarget(value: string): ViaTarget {
  if (!/^https?:\/\//i.test(value)) throw new UsageError(`--base-url ${withoutPassword(value)}: not an http(s) URL`, 'give each endpoint as a base URL, optionally with ,N for the jobs in flight there');
  return parseUrlTarget(value, '--base-url');
}

/** Parses one --via value: `PROFILE`, `PROFILE:N`, `URL` or `URL,N`. */
export function parseVia(value: string): ViaTarget {
  const what = `--via ${value}`;
  if (/^https?:\/\//i.test(value)) return parseUrlTarget(value, '--via');
  const colon = value.lastIndexOf(':');
  const target = colon < 0 ? value : value.slice(0, colon);
  if (!isValidProfileName(target)) throw new UsageError(`${what}: not a profile name or an http(s) URL`, 'give a profile (`wes profiles list`), optionally with :N, or a base URL, optionally with ,N');
  return colon < 0 ? { target } : { target, concurrency: parseCount(value.slice(colon + 1), what) };
}

/** The value as `--via` takes it (the inverse of parseVia). */
export function formatVia(via: ViaTarget): string {
  if (via.concurrency === undefined) return via.target;
  return `${via.target}${/^https?:\/\//i.test(via.target) ? ',' : ':'}${via.concurrency}`;
}
