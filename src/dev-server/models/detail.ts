// GET /v1/models/{provider}/{model} and .../openapi.json.
import type { RequestContext } from '../contract.js';
import { sendEmpty, sendJson } from '../http-kit.js';
import type { RouterModelDetail } from '../../protocol/models.js';
import type { CatalogModel } from './catalog.js';
import { ifNoneMatchHits, schemaDocument } from './docs.js';
import { sendJsonBytes } from './respond.js';
import type { ModelsState } from './state.js';

/** The schema route in its https form (the interface requires `^https://` for the field). */
function inputSchemaUrl(ctx: RequestContext, model: CatalogModel): string {
  const host = new URL(ctx.origin).host;
  const { provider, model: name } = model.entry;
  return `https://${host}${ctx.mountPrefix}/v1/models/${provider}/${name}/openapi.json`;
}

export function showModel(ctx: RequestContext, model: CatalogModel): void {
  const detail: RouterModelDetail = { ...model.entry };
  if (model.schemaPublished) detail.input_schema_url = inputSchemaUrl(ctx, model);
  sendJson(ctx, 200, detail);
}

export function sendSchema(ctx: RequestContext, state: ModelsState, model: CatalogModel): void {
  const doc = schemaDocument(state, model);
  const headers = { etag: doc.etag, 'cache-control': 'private, must-revalidate' };
  const header = ctx.req.headers['if-none-match'];
  if (ifNoneMatchHits(typeof header === 'string' ? header : undefined, doc.etag)) return sendEmpty(ctx, 304, headers);
  sendJsonBytes(ctx, 200, doc.bytes, headers);
}
