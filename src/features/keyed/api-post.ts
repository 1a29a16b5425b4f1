// `wes api POST` of a job API v2 submit or upload with an Idempotency-Key: the same promise as
// `jobs submit` (key-rules.ts). The HTTP layer sends it once (single use: again only after a connect
// failure or a 429, which made nothing); an answer that never came, or a 5xx, leaves it in doubt,
// said as `jobs submit` says it (exit 11, the key, the find command) and never sent again.
import { ApiError, InDoubtError, toWesError } from '../../errors.js';
import { mayHaveTakenEffect } from './verdict.js';
import { joinBase } from '../../http/links.js';
import { KEY_NEW_ONLY_WHEN_NONE, keyReuseHint } from '../../key-rules.js';

/** Where a `wes api` request goes: its API family and URL. */
export interface ApiPostTarget {
  family: string;
  url: URL;
}

/** The single-use routes: a job submit, an asset upload. */
const KEYED_ROUTES: Record<string, 'job' | 'asset'> = { '/api/v2/jobs': 'job', '/api/v2/assets': 'asset' };

/** What a keyed POST to `target` makes, when it is a single-use route; undefined for anything else. */
export function singleUseRoute(method: string, target: ApiPostTarget, baseUrl: string, key: string | undefined): 'job' | 'asset' | undefined {
  if (method !== 'POST' || target.family !== 'jobs' || key === undefined) return undefined;
  for (const [path, makes] of Object.entries(KEYED_ROUTES)) if (joinBase(baseUrl, path).pathname.replace(/\/+$/, '') === target.url.pathname.replace(/\/+$/, '')) return makes;
  return undefined;
}

/** The failure of a keyed single-use POST, told as `jobs submit` tells it: in doubt, or a reused key. */
export function keyedFailure(err: unknown, key: string, makes: 'job' | 'asset'): unknown {
  if (err instanceof ApiError && err.code === 'idempotency_key_reuse') {
    err.hint = keyReuseHint(key);
    return err;
  }
  if (!mayHaveTakenEffect(err)) return err;
  const cause = toWesError(err);
  const look = makes === 'job' ? `Look for its job with: wes jobs find --key ${key}` : 'Look at the assets before uploading again';
  return new InDoubtError(`the POST got no usable answer (${cause.message}); it may or may not have made ${makes === 'job' ? 'a job' : 'an asset'}`, {
    key,
    cause: err,
    hint: `nothing was sent again: Idempotency-Key ${key} is spent, and a new key could make a second ${makes}. ${look}. ${KEY_NEW_ONLY_WHEN_NONE}`,
  });
}
