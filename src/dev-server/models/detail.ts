// GET /v1/models/{provider}/{model} and .../openapi.json.
import type { RequestContext } from '../contract.js';
import { sendEmpty, sendJson } from '../http-kit.js';
import type { RouterApi, RouterModelDetail } from '../../protocol/models.js';
import { modelPath } from '../../protocol/model-ids.js';
import type { CatalogModel } from './catalog.js';
import { ifNoneMatchHits, schemaDocument } from './docs.js';
import { sendJsonBytes } from './respond.js';
import type { ModelsState } from './state.js';

/** The schema route in its https form (the interface requires `^https://` for the field). */
function inputSchemaUrl(ctx: RequestContext, model: CatalogModel, api: RouterApi): string {
  const host = new URL(ctx.origin).host;
  return `https://${host}${ctx.mountPrefix}${modelPath(model.entry, api)}/openapi.json`;
}

export function showModel(ctx: RequestContext, model: CatalogModel, api: RouterApi): void {
  const detail: RouterModelDetail = { ...model.entry };
  if (model.schemaPublished) detail.input_schema_url = inputSchemaUrl(ctx, model, api);
  sendJson(ctx, 200, detail);
}

export function sendSchema(ctx: RequestContext, state: ModelsState, model: CatalogModel, api: RouterApi): void {
  const doc = schemaDocument(state, model, api);
  const headers = { etag: doc.etag, 'cache-control': 'private, must-revalidate' };
  const header = ctx.req.headers['if-none-match'];
  if (ifNoneMatchHits(typeof header === 'string' ? header : undefined, doc.etag)) return sendEmpty(ctx, 304, headers);
  sendJsonBytes(ctx, 200, doc.bytes, headers);
}
