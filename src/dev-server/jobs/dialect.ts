// Where the three deployments of the job API differ (observations/job-api-v2-deployments.md):
// how `metadata` is taken, which job list is served, the not-found codes. The dev-server's own
// reading of the facts table; it shares only the protocol's bounds with the client.
import type { RequestContext } from '../contract.js';
import { LABEL_KEY_PATTERN, LABELS_MAX_PAIRS, METADATA_MAX_BYTES } from '../../protocol/jobs.js';

/** How a submit's `metadata` is taken: serverless labels, none (Comfy Cloud), the proxy's string. */
export type MetadataDialect = 'map' | 'none' | 'string';

export function metadataDialect(ctx: RequestContext): MetadataDialect {
  const { deployment, jobList } = ctx.state.options;
  if (deployment === 'serverless') return 'map';
  // Comfy Cloud takes no labels; a cloud switched to serve the proxy's list (`jobList`) takes its string too.
  if (deployment === 'cloud' && !jobList) return 'none';
  return 'string';
}

/** Which job list `GET /api/v2/jobs` serves: serverless pages, the proxy's, Cloud's 501, or none (a routing 404). */
export function listDialect(ctx: RequestContext): 'cursor' | 'truncated' | 'not-implemented' | 'none' {
  const { deployment, jobList } = ctx.state.options;
  if (deployment === 'serverless') return jobList ? 'cursor' : 'none';
  if (jobList) return 'truncated';
  return deployment === 'cloud' ? 'not-implemented' : 'none';
}

/** The not-found code of a job or an asset: Comfy Cloud names the entity. */
export function notFoundCode(ctx: RequestContext, entity: 'job' | 'asset'): string {
  return ctx.state.options.deployment === 'cloud' ? `${entity}_not_found` : 'not_found';
}

// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_VALUE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Why a serverless label map is refused (`metadata_invalid`), naming the key or the count; null when it is taken. */
export function labelMapProblem(metadata: unknown): string | null {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return "'metadata' must be an object of string labels.";
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > LABELS_MAX_PAIRS) return `'metadata' has ${entries.length} labels; at most ${LABELS_MAX_PAIRS} are allowed.`;
  for (const [key, value] of entries) {
    if (!LABEL_KEY_PATTERN.test(key)) return `metadata key '${key.slice(0, 60)}' must be 1-40 characters of A-Z, a-z, 0-9, '_', '-', '.'.`;
    if (typeof value !== 'string') return `metadata value for '${key}' must be a string.`;
    if (FORBIDDEN_IN_VALUE.test(value)) return `metadata value for '${key}' contains control or bidirectional characters.`;
  }
  return null;
}

/** Why the proxy's string is refused (`invalid_request`); null when taken. */
export function labelStringProblem(metadata: unknown): string | null {
  if (typeof metadata !== 'string') return "'metadata' must be a string (opaque label).";
  if (Buffer.byteLength(metadata) > METADATA_MAX_BYTES) return `'metadata' must be at most ${METADATA_MAX_BYTES} bytes.`;
  return null;
}

/** A serverless list filter's key and value are checked as labels are. */
export function filterProblem(key: string, value: string): boolean {
  return !LABEL_KEY_PATTERN.test(key) || FORBIDDEN_IN_VALUE.test(value);
}
