// Reading a model's input-schema document (service interface, "B. Router": GET
// .../openapi.json answers a standalone OpenAPI document): where the request body schema is, and
// how to follow the document's local `$ref`s. The document comes from the
// server, so every step checks shapes instead of trusting them.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export class SchemaDocumentError extends Error {}

/** Follows one local JSON pointer (`#/components/schemas/Input`) inside `doc`. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) throw new SchemaDocumentError(`only local $refs are supported, got ${JSON.stringify(ref)}`);
  const path = ref.slice(1);
  if (path === '') return doc;
  if (!path.startsWith('/')) throw new SchemaDocumentError(`unsupported $ref ${JSON.stringify(ref)}`);
  let node: unknown = doc;
  for (const raw of path.slice(1).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else throw new SchemaDocumentError(`$ref ${JSON.stringify(ref)} points at nothing in the document`);
  }
  return node;
}

/** Replaces a `{$ref}` node by its target (repeatedly), merging sibling keywords over the target. */
export function deref(doc: unknown, node: unknown, seen: Set<string> = new Set()): unknown {
  let current = node;
  while (isObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (seen.has(ref)) throw new SchemaDocumentError(`$ref cycle through ${ref}`);
    seen.add(ref);
    const { $ref: _ref, ...siblings } = current;
    const target = resolvePointer(doc, ref);
    current = Object.keys(siblings).length > 0 && isObject(target) ? { ...target, ...siblings } : target;
  }
  return current;
}

const OPERATION_METHODS = ['post', 'put', 'patch'] as const;

/** The JSON schema of the request body the document describes (still possibly a `$ref`). */
export function findRequestBodySchema(doc: unknown): unknown {
  if (!isObject(doc)) throw new SchemaDocumentError('the schema document is not a JSON object');
  const paths = doc.paths;
  if (!isObject(paths)) throw new SchemaDocumentError('the schema document has no paths');
  for (const item of Object.values(paths)) {
    const pathItem = deref(doc, item);
    if (!isObject(pathItem)) continue;
    for (const method of OPERATION_METHODS) {
      const operation = deref(doc, pathItem[method]);
      if (!isObject(operation)) continue;
      const body = deref(doc, operation.requestBody);
      if (!isObject(body) || !isObject(body.content)) continue;
      const media = Object.entries(body.content).find(([type]) => /^application\/([\w.+-]*\+)?json\b/i.test(type));
      const mediaObject = media ? deref(doc, media[1]) : undefined;
      if (isObject(mediaObject) && mediaObject.schema !== undefined) return mediaObject.schema;
    }
  }
  throw new SchemaDocumentError('the schema document describes no JSON request body');
}
