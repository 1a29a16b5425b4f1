// GET /v1/models: the catalog in pages. The page size follows a fixed pattern of full, short and
// empty pages (while has_more stays true), so clients must keep walking until has_more is false.
import type { RequestContext } from '../contract.js';
import { sendJson } from '../http-kit.js';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, type RouterModelListResponse } from '../../protocol/models.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { modelsError } from './respond.js';
import type { ModelsState } from './state.js';

/** `limit` as served: default for absent, 0 and negative; clamped to the maximum. */
export function effectiveLimit(raw: string | null): number | undefined {
  if (raw === null || raw === '') return LIST_LIMIT_DEFAULT;
  if (!/^-?\d+$/.test(raw.trim())) return undefined;
  const value = Number(raw.trim());
  if (value <= 0) return LIST_LIMIT_DEFAULT;
  return Math.min(value, LIST_LIMIT_MAX);
}

/** Entries served on page number `page`: every 5th page (from the 3rd) empty, every 3rd (from the 2nd) a third. */
export function pageSize(page: number, limit: number): number {
  if (page % 5 === 2) return 0;
  if (page % 3 === 1) return Math.max(1, Math.floor(limit / 3));
  return limit;
}

export function listModels(ctx: RequestContext, state: ModelsState): void {
  const limit = effectiveLimit(ctx.url.searchParams.get('limit'));
  // The list route answers 400 RouterErrorResponse (it has no 422) for a bad query.
  if (limit === undefined) return modelsError(ctx, 400, 'invalid_input', '`limit` must be an integer.');
  const catalog = state.catalog;
  let position = 0;
  let page = 0;
  const cursor = ctx.url.searchParams.get('cursor');
  if (cursor !== null) {
    const verdict = decodeCursor(state.cursorKey, cursor, catalog.generation);
    if (!verdict.ok) {
      return modelsError(ctx, 400, 'invalid_input', verdict.reason === 'stale'
        ? 'Cursor has expired: the catalog was rebuilt; start the walk again without a cursor.'
        : 'Cursor is malformed or was not issued by this service.');
    }
    position = Math.min(verdict.state.position, catalog.order.length);
    page = verdict.state.page;
  }
  const slice = catalog.order.slice(position, position + pageSize(page, limit));
  const next = position + slice.length;
  const hasMore = next < catalog.order.length;
  const body: RouterModelListResponse = { data: slice.map((m) => m.entry), has_more: hasMore, limit };
  if (hasMore) body.next_cursor = encodeCursor(state.cursorKey, { generation: catalog.generation, position: next, page: page + 1 });
  sendJson(ctx, 200, body);
}
