// One page of `GET /api/v2/jobs`, read whatever the deployment: the self-hosted proxy's
// `{jobs, truncated}` of whole Jobs, or a serverless `{jobs, next_cursor}` of stored records (no
// outputs, no urls). Read leniently, as the maker's clients do: an item needs an `id` and a
// `status` (one without is an error, never skipped), everything else is taken as it comes.
import type { HttpResponse } from '../../http/client.js';
import { badResponse, isRecord } from './check.js';
import { SAFE_ID } from '../shared/response-check.js';
import { labelsOf, type ReadLabels } from './labels.js';
import type { ListDialect } from './list-dialect.js';

/** A list item, as much as every deployment's list says about a job. */
export interface ListedJob {
  id: string;
  status: string;
  /** `created_at` (a whole Job) or `create_time` (a stored record). */
  createdAt?: string;
  updatedAt?: string;
  labels: ReadLabels;
  /** The item as the server sent it (printed as it is by `jobs list --remote --json`). */
  raw: Record<string, unknown>;
}

export interface ListPage {
  /** `truncated`: the proxy's page; `cursor`: a serverless page (`next_cursor`, or none on the last). */
  dialect: Exclude<ListDialect, 'none'>;
  jobs: ListedJob[];
  truncated?: boolean;
  nextCursor?: string;
  /** The answer carried neither `truncated` nor `next_cursor` (an earlier self-hosted release): whether the list is whole is not said. */
  unsaid?: boolean;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Reads a list answer. `cursorDialect`: the deployment is known to page by cursor (its last page
 * carries neither `next_cursor` nor `truncated`); otherwise the answer's own fields tell.
 */
export function readListPage(res: HttpResponse<unknown>, cursorDialect: boolean): ListPage {
  const body = res.body;
  if (!isRecord(body) || !Array.isArray(body.jobs)) throw badResponse('the job list has no `jobs` array', res);
  const jobs = body.jobs.map((item, i): ListedJob => {
    if (!isRecord(item)) throw badResponse(`item ${i} of the job list is not an object`, res);
    if (typeof item.id !== 'string' || !SAFE_ID.test(item.id)) throw badResponse(`item ${i} of the job list has no \`id\` of printable ASCII`, res);
    if (typeof item.status !== 'string') throw badResponse(`item ${i} of the job list has no \`status\``, res);
    return {
      id: item.id,
      status: item.status,
      createdAt: optionalString(item.created_at) ?? optionalString(item.create_time),
      updatedAt: optionalString(item.update_time) ?? optionalString(item.completed_at),
      labels: labelsOf(item.metadata),
      raw: item,
    };
  });
  if (body.truncated !== undefined && typeof body.truncated !== 'boolean') throw badResponse('the job list `truncated` is not a boolean', res);
  if (body.next_cursor !== undefined && body.next_cursor !== null && typeof body.next_cursor !== 'string') {
    throw badResponse('the job list `next_cursor` is not a string', res);
  }
  const nextCursor = typeof body.next_cursor === 'string' && body.next_cursor !== '' ? body.next_cursor : undefined;
  if (typeof body.truncated === 'boolean' && !cursorDialect && !('next_cursor' in body)) return { dialect: 'truncated', jobs, truncated: body.truncated };
  if (cursorDialect || 'next_cursor' in body) return { dialect: 'cursor', jobs, nextCursor };
  // Neither field: a list of no known deployment; nothing in it proves it whole.
  return { dialect: 'truncated', jobs, truncated: true, unsaid: true };
}
