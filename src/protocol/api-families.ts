// The three API families of the service interface (its opening list), named as the command
// nouns name them: `jobs` (job API v2, `/api/v2/...`), `models` (the model router, `/v1/models...`,
// and `/v2/models...` as the maker has published it since)
// and `legacy` (cloud API v1, deprecated, every other `/api/...`).

export type ApiFamily = 'jobs' | 'models' | 'legacy';

export const API_FAMILIES: readonly ApiFamily[] = ['jobs', 'models', 'legacy'];

/** The family a request path belongs to, by its prefix; undefined outside all three. */
export function familyOfPath(pathname: string): ApiFamily | undefined {
  if (/^\/api\/v2(\/|$)/.test(pathname)) return 'jobs';
  if (/^\/v1(\/|$)/.test(pathname) || /^\/v2\/models(\/|$)/.test(pathname)) return 'models';
  if (/^\/api(\/|$)/.test(pathname)) return 'legacy';
  return undefined;
}
