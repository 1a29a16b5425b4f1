// The optional fields an asset upload and a from-hash share (published contract): `tags` (a list
// of strings) and `expires_in` (a retention override in seconds, 60 to 604800).
import { ASSET_EXPIRES_IN_MAX, ASSET_EXPIRES_IN_MIN } from '../../protocol/jobs.js';

export type Parsed<T> = { value: T } | { problem: string };

/** `expires_in` as the epoch ms the record lapses at; a multipart field arrives as text. */
export function parseExpiresIn(raw: unknown, now = Date.now()): Parsed<number | undefined> {
  if (raw === undefined) return { value: undefined };
  const seconds = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < ASSET_EXPIRES_IN_MIN || seconds > ASSET_EXPIRES_IN_MAX) {
    return { problem: `\`expires_in\` must be a whole number of seconds from ${ASSET_EXPIRES_IN_MIN} to ${ASSET_EXPIRES_IN_MAX}` };
  }
  return { value: now + seconds * 1000 };
}

export function parseTags(raw: unknown): Parsed<string[] | undefined> {
  if (raw === undefined) return { value: undefined };
  if (!Array.isArray(raw) || raw.some((tag) => typeof tag !== 'string')) return { problem: '`tags` must be a list of strings' };
  return { value: raw as string[] };
}
