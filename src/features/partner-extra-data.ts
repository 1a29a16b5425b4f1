// The partner-node credentials a submit carries in extra_data, under the maker's names. A v1
// prompt (the engine's and the cloud's /api/prompt, whose extra_data is open) takes the key and the
// account's auth token, which ComfyUI hands to partner nodes as hidden inputs; the job API v2 takes
// the key alone (the reference server refuses any other field with 400), so the token never goes there.
import type { Settings } from '../config/settings.js';
import { describeSource } from '../config/settings.js';
import { UsageError } from '../errors.js';
import { PARTNER_KEY_FIELD, PARTNER_TOKEN_FIELD } from '../protocol/maker-names.js';

export interface PartnerCredentials {
  partnerKey?: string | undefined;
  partnerToken?: string | undefined;
}

/** extra_data of a v1 prompt: the key and the token, each where set; undefined when neither is. */
export function promptExtraData(s: PartnerCredentials): Record<string, string> | undefined {
  const extra: Record<string, string> = {};
  if (s.partnerKey) extra[PARTNER_KEY_FIELD] = s.partnerKey;
  if (s.partnerToken) extra[PARTNER_TOKEN_FIELD] = s.partnerToken;
  return Object.keys(extra).length > 0 ? extra : undefined;
}

/** extra_data of a job API v2 submit: the key alone. */
export function jobExtraData(s: PartnerCredentials): Record<string, string> | undefined {
  return s.partnerKey ? { [PARTNER_KEY_FIELD]: s.partnerKey } : undefined;
}

/**
 * Before a job API v2 submit: a partner token typed on this command is refused (the job API takes
 * none, and sending it would fail the submit); one from the environment or the profile, kept for
 * v1 prompts, is left out, and the returned sentence says so.
 */
export function partnerTokenOnJobApi(s: Settings): string | undefined {
  if (!s.partnerToken) return undefined;
  const from = describeSource(s.values.partner_token, 'partner_token');
  const why = `the job API v2 takes no partner token (its extra_data holds ${PARTNER_KEY_FIELD} alone)`;
  if (s.values.partner_token.source === 'flag') {
    throw new UsageError(`${from}: ${why}`, 'give the partner key instead (--partner-key, WES_PARTNER_KEY), or send the workflow as a v1 prompt with `wes legacy prompt`, which carries the token');
  }
  return `the partner token (from ${from}) is not sent: ${why}`;
}
