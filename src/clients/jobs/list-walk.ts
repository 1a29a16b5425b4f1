// The server's job list read to a number of jobs: the self-hosted proxy's one page, or a serverless
// deployment's pages walked by `next_cursor` until `limit` jobs or the last page.
import { JOB_LIST_LIMIT_MAX } from '../../protocol/jobs.js';
import type { JobsClient, ListQuery, ListRead } from './client.js';

export interface ListWalk {
  reads: ListRead[];
  items: ListRead['page']['jobs'];
}

export async function walkJobList(client: JobsClient, query: Omit<ListQuery, 'cursor' | 'limit'>, limit: number): Promise<ListWalk> {
  const reads: ListRead[] = [];
  const items: ListRead['page']['jobs'] = [];
  let cursor: string | undefined;
  do {
    const read = await client.listPage({ ...query, limit: Math.min(limit - items.length, JOB_LIST_LIMIT_MAX), cursor });
    reads.push(read);
    items.push(...read.page.jobs.slice(0, limit - items.length));
    cursor = read.page.dialect === 'cursor' ? read.page.nextCursor : undefined;
  } while (cursor !== undefined && items.length < limit);
  return { reads, items };
}
