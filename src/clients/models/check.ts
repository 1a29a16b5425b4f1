// Router answers are untrusted: the fields a command relies on are checked before use, so a
// malformed answer becomes one clear error instead of a crash later on.
import type { HttpResponse } from '../../http/client.js';
import type { WesError } from '../../errors.js';
import { isModelId, requestIdProblem } from '../../protocol/model-ids.js';
import { isObject } from '../../protocol/openapi-document.js';
import type { RouterModelDetail, RouterModelListEntry, RouterModelListResponse, RouterQueueCancelResponse, RouterQueueStatusResponse } from '../../protocol/models.js';
import { badResponse as badResponseOf } from '../shared/response-check.js';

/** A malformed answer of this API family. */
export function badResponse(what: string, res: HttpResponse<unknown>): WesError {
  return badResponseOf('models', what, res);
}

function entryProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'is not an object';
  for (const key of ['id', 'provider', 'model'] as const) if (typeof value[key] !== 'string') return `has no string \`${key}\``;
  if (!isModelId(value.id as string)) return `has an id that breaks the model id rules (${JSON.stringify(value.id)})`;
  if (value.id !== `${value.provider as string}/${value.model as string}`) return 'has an id that is not provider/model';
  if (!isObject(value.billing) || typeof value.billing.charges_on_policy_rejection !== 'string') return 'has no `billing.charges_on_policy_rejection`';
  return undefined;
}

function checkEntry(value: unknown, where: string, res: HttpResponse<unknown>): RouterModelListEntry {
  const problem = entryProblem(value);
  if (problem) throw badResponse(`${where} ${problem}`, res);
  return value as RouterModelListEntry;
}

/** The page's own fields (not its entries: checkListEntries does). */
export function checkListFields(res: HttpResponse<unknown>): RouterModelListResponse {
  const body = res.body;
  if (!isObject(body)) throw badResponse('the model list is not a JSON object', res);
  if (!Array.isArray(body.data)) throw badResponse('the model list has no `data` array', res);
  if (typeof body.has_more !== 'boolean') throw badResponse('the model list has no boolean `has_more`', res);
  if (typeof body.limit !== 'number' || !Number.isInteger(body.limit)) throw badResponse('the model list has no integer `limit`', res);
  if (body.has_more && (typeof body.next_cursor !== 'string' || body.next_cursor === '')) {
    throw badResponse('the model list says has_more but gives no `next_cursor`', res);
  }
  return body as unknown as RouterModelListResponse;
}

export function checkListEntries(page: RouterModelListResponse, res: HttpResponse<unknown>): void {
  page.data.forEach((entry, i) => checkEntry(entry, `entry ${i} of the model list`, res));
}

export function checkListPage(res: HttpResponse<unknown>): RouterModelListResponse {
  const page = checkListFields(res);
  checkListEntries(page, res);
  return page;
}

export function checkDetail(res: HttpResponse<unknown>): RouterModelDetail {
  const detail = checkEntry(res.body, 'the model detail', res) as RouterModelDetail;
  if (detail.input_schema_url !== undefined && typeof detail.input_schema_url !== 'string') {
    throw badResponse('the model detail has an `input_schema_url` that is not a string', res);
  }
  return detail;
}

/** A queued request's handle or state (submit, status, the 202 of the result read): the id it is addressed by, a status. */
export function checkQueueState(res: HttpResponse<unknown>, what: string, expectedId?: string): RouterQueueStatusResponse {
  const body = res.body;
  if (!isObject(body)) throw badResponse(`the ${what} is not a JSON object`, res);
  if (typeof body.request_id !== 'string' || requestIdProblem(body.request_id)) throw badResponse(`the ${what} names no usable request_id`, res);
  if (expectedId !== undefined && body.request_id !== expectedId) throw badResponse(`the ${what} is about request ${body.request_id}, not ${expectedId}`, res);
  // An open string here: a status this client has not heard of is taken as not finished yet.
  if (typeof body.status !== 'string' || body.status === '') throw badResponse(`the ${what} names no status`, res);
  const position = body.queue_position;
  if (position !== undefined && (typeof position !== 'number' || !Number.isInteger(position) || position < 0)) throw badResponse(`the ${what} has a queue_position that is not a whole number`, res);
  if (body.error_type !== undefined && typeof body.error_type !== 'string') throw badResponse(`the ${what} has an error_type that is not a string`, res);
  return body as unknown as RouterQueueStatusResponse;
}

export function checkCancel(res: HttpResponse<unknown>, expectedId: string): RouterQueueCancelResponse {
  const body = res.body;
  if (!isObject(body) || typeof body.status !== 'string') throw badResponse('the cancel answer names no status', res);
  if (body.request_id !== undefined && body.request_id !== expectedId) throw badResponse(`the cancel answer is about request ${String(body.request_id)}, not ${expectedId}`, res);
  return { request_id: expectedId, status: body.status as RouterQueueCancelResponse['status'] };
}
