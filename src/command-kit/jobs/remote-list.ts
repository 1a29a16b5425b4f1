// The server's own job list (`GET /api/v2/jobs`, newest first) for `jobs list --remote`: the
// self-hosted proxy's one page, or a serverless deployment's pages walked by `next_cursor` to the
// end or to the limit, filtered there by label. A server without a list answers 404, 405 or 501:
// that is said as "no list" (the command shows this machine's history instead), unless labels were
// asked for, which the history cannot filter by.
import { ApiError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { walkJobList, type ListWalk } from '../../clients/jobs/list-walk.js';
import type { JobLabels } from '../../protocol/jobs.js';
import type { FeatureContext } from '../../features/context.js';

export type RemoteList = { kind: 'listed'; walk: ListWalk } | { kind: 'none'; status: number };

export async function readRemoteJobs(f: FeatureContext, filter: { status?: string; labels?: JobLabels }, limit: number): Promise<RemoteList> {
  try {
    return { kind: 'listed', walk: await walkJobList(f.client(JobsClient), filter, limit) };
  } catch (err) {
    if (!(err instanceof ApiError) || err.origin !== 'jobs' || ![404, 405, 501].includes(err.status ?? 0)) throw err;
    if (filter.labels) throw err;
    return { kind: 'none', status: err.status! };
  }
}
