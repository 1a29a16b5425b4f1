// Each model's input schema as a standalone OpenAPI 3.1 document: its bytes, a strong ETag over
// them, and the validator compiled from the very same document (the server validates calls
// against what it serves).
import { createHash } from 'node:crypto';
import { compileInputValidator, type InputValidator } from '../../protocol/model-input-validation.js';
import type { JsonObject } from '../../protocol/openapi-document.js';
import { modelPath } from '../../protocol/model-ids.js';
import type { RouterApi } from '../../protocol/models.js';
import type { CatalogModel } from './catalog.js';

export interface SchemaDocument {
  bytes: Buffer;
  etag: string;
  validate: InputValidator;
}

/** The 200 of the run route: JSON; on the published routes a model whose partner answers bytes says which. */
function outputContent(model: CatalogModel, api: RouterApi): JsonObject {
  const json = { 'application/json': { schema: { type: 'object' } } };
  if (api === 'v1' || !model.behaviour.outputMediaType) return json;
  return { [model.behaviour.outputMediaType]: { schema: { type: 'string', format: 'binary' } } };
}

export function buildOpenApiDocument(model: CatalogModel, api: RouterApi = 'v1'): JsonObject {
  const { id } = model.entry;
  return {
    openapi: '3.1.0',
    info: {
      title: `${id} input`,
      version: '1.0.0',
      description: `${model.behaviour.summary} The request body is the model's own JSON input; the answer is its own JSON output.`,
    },
    paths: {
      [modelPath(model.entry, api)]: {
        post: {
          operationId: 'run',
          summary: `Run ${id}`,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } },
          },
          responses: {
            '200': { description: 'The model output, unchanged.', content: outputContent(model, api) },
          },
        },
      },
    },
    components: { schemas: model.behaviour.schemas() },
  };
}

/** The document of `model`, built once per route family and kept in the models state's `docs`. */
export function schemaDocument(state: { docs: Map<string, SchemaDocument> }, model: CatalogModel, api: RouterApi = 'v1'): SchemaDocument {
  const key = `${api} ${model.entry.id}`;
  let doc = state.docs.get(key);
  if (!doc) {
    const value = buildOpenApiDocument(model, api);
    const bytes = Buffer.from(JSON.stringify(value, null, 2));
    const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
    doc = { bytes, etag, validate: compileInputValidator(value) };
    state.docs.set(key, doc);
  }
  return doc;
}

/** RFC 9110 If-None-Match: weak comparison, `*` matches any current representation. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}
