// Where a model's input schema comes from: the profile's cache, revalidated with If-None-Match
// (a 304 serves the cached copy), or a fresh fetch that refills the cache.
import { ExitCode, WesError } from '../../errors.js';
import type { ModelsClient } from './client.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import { isObject, type JsonObject } from '../../protocol/openapi-document.js';
import type { SchemaCache } from './schema-cache.js';

export interface LoadedSchema {
  doc: JsonObject;
  text: string;
  etag: string | undefined;
  /** cache: not contacted; not_modified: the server answered 304; fetched: a 200. */
  source: 'cache' | 'not_modified' | 'fetched';
}

function parseDocument(text: string, ref: ModelRef): JsonObject {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new WesError(`the input schema of ${ref.id} is not valid JSON (${(err as Error).message})`, { exitCode: ExitCode.ERROR, code: 'bad_response', origin: 'models' });
  }
  if (!isObject(doc)) throw new WesError(`the input schema of ${ref.id} is not a JSON object`, { exitCode: ExitCode.ERROR, code: 'bad_response', origin: 'models' });
  return doc;
}

export class SchemaSource {
  constructor(
    private readonly client: ModelsClient,
    private readonly cache: SchemaCache,
  ) {}

  /** The cached document without asking the server, if there is one. */
  async cached(ref: ModelRef): Promise<LoadedSchema | undefined> {
    const entry = await this.cache.read(ref);
    if (!entry) return undefined;
    try {
      return { doc: parseDocument(entry.text, ref), text: entry.text, etag: entry.etag, source: 'cache' };
    } catch {
      return undefined;
    }
  }

  /** The current document: revalidates a cached copy (unless `refresh`), else fetches it. */
  async load(ref: ModelRef, options: { refresh?: boolean } = {}): Promise<LoadedSchema> {
    const cached = options.refresh ? undefined : await this.cached(ref);
    const answer = await this.client.schema(ref, cached?.etag);
    if (answer.status === 304) {
      if (!cached) {
        throw new WesError(`the router answered 304 Not Modified for ${ref.id} without being asked conditionally`, { exitCode: ExitCode.ERROR, code: 'bad_response', origin: 'models', requestId: answer.requestId });
      }
      return { ...cached, etag: answer.etag ?? cached.etag, source: 'not_modified' };
    }
    const text = answer.bytes!.toString('utf8');
    const doc = parseDocument(text, ref);
    await this.cache.write(ref, answer.etag, text);
    return { doc, text, etag: answer.etag, source: 'fetched' };
  }
}
