// What the run route and the queue's submit route both do with a call before anything runs: read
// the JSON body and the Idempotency-Key (415 for a non-JSON body, 422 for a body or key that is
// malformed), then check the input against the model's schema and the provider's own rules (422)
// and the workspace's credits (402). Each answers its refusal itself and returns null.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { RequestContext } from '../contract.js';
import { BodyError, jsonTooDeep, readBody, TOO_DEEP_MESSAGE } from '../http-kit.js';
import type { RouterApi, RouterValidationErrorDetail } from '../../protocol/models.js';
import type { ModelsCaller } from './auth.js';
import type { CatalogModel } from './catalog.js';
import { schemaDocument } from './docs.js';
import type { JsonObject, ModelCall, PublishedFile } from './stock/types.js';
import { invalidInput, modelsError } from './respond.js';
import { modelMemory, type ModelsState } from './state.js';

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;
const MAX_KEY_LENGTH = 255;

export function digest(...parts: Array<string | Buffer>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

export interface ReadCall {
  raw: Buffer;
  value: unknown;
  key: string | undefined;
  /** What a same-key request must match: the method, the path and query, and the body. */
  fingerprint: string;
}

function keyOf(ctx: RequestContext): { key?: string; problem?: RouterValidationErrorDetail } {
  const header = ctx.req.headers['idempotency-key'];
  if (header === undefined) return {};
  const key = Array.isArray(header) ? header[0] ?? '' : header;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    return { problem: { loc: ['header', 'Idempotency-Key'], msg: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`, type: 'string_too_long', ctx: { max_length: MAX_KEY_LENGTH } } };
  }
  return { key };
}

function parseBody(raw: Buffer): { value?: unknown; problem?: RouterValidationErrorDetail } {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    // The call route has no 400: like unparseable JSON, a too-deep body is a 422 on the body.
    if (jsonTooDeep(value)) return { problem: { loc: ['body'], msg: TOO_DEEP_MESSAGE, type: 'json_invalid' } };
    return { value };
  } catch (err) {
    const message = (err as Error).message;
    return { problem: { loc: ['body'], msg: `Invalid JSON: ${message}`, type: 'json_invalid', ctx: { error: message } } };
  }
}

/** The body and key, or null after answering 422 (a 415 is thrown as a BodyError). */
export async function readCall(ctx: RequestContext): Promise<ReadCall | null> {
  const type = String(ctx.req.headers['content-type'] ?? 'application/json');
  if (!JSON_TYPE.test(type)) throw new BodyError(415, `expected a JSON body (Content-Type: application/json), got ${type}`);
  const raw = await readBody(ctx);
  const { key, problem: keyProblem } = keyOf(ctx);
  const parsed = parseBody(raw);
  const early = [keyProblem, parsed.problem].filter((p): p is RouterValidationErrorDetail => p !== undefined);
  if (early.length > 0) {
    invalidInput(ctx, early);
    return null;
  }
  return { raw, value: parsed.value, key, fingerprint: digest(ctx.req.method ?? 'POST', ctx.url.pathname + ctx.url.search, raw) };
}

function problemsOf(state: ModelsState, model: CatalogModel, value: unknown, api: RouterApi): RouterValidationErrorDetail[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ loc: ['body'], msg: 'Input should be a valid dictionary or object', type: 'model_attributes_type', input: value }];
  }
  const problems = schemaDocument(state, model, api).validate(value);
  return [...problems, ...(model.behaviour.check?.(value as JsonObject) ?? [])];
}

/** The checked input and its price, or null after answering 422 or 402. */
export function checkCall(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel, read: ReadCall, api: RouterApi, strict = false): { input: JsonObject; cost: number } | null {
  // strict_mode: the body is the alternate provider's own shape, so the native schema is not asked.
  const isObject = typeof read.value === 'object' && read.value !== null && !Array.isArray(read.value);
  const problems = strict && isObject ? [] : problemsOf(state, model, read.value, api);
  if (problems.length > 0) {
    invalidInput(ctx, problems);
    return null;
  }
  const input = read.value as JsonObject;
  const cost = model.behaviour.costCents(input);
  if (caller.broke && cost > 0) {
    modelsError(ctx, 402, 'insufficient_credits', `The workspace has no credits left; a call to ${model.entry.id} costs ${cost} cents.`);
    return null;
  }
  return { input, cost };
}

function publisher(ctx: RequestContext): ModelCall['publish'] {
  const { blobs, signer } = ctx.state;
  return async (bytes, name, contentType): Promise<PublishedFile> => {
    const blob = await blobs.put(Readable.from([bytes]));
    const asset = blobs.createAsset({ hash: blob.hash, file_path: `router/${name}`, content_type: contentType });
    const signed = signer.sign(`${asset.id}/${encodeURIComponent(name)}`);
    return { url: signed.url, expires_at: signed.expiresAt };
  };
}

/** What the model's behaviour gets for one call. */
export function modelCall(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel, raw: Buffer, input: JsonObject, api: RouterApi, signal: AbortSignal = state.shutdown.signal): ModelCall {
  const id = model.entry.id;
  return { input, raw, credential: caller.token, callDigest: digest(caller.token, id, raw), memory: modelMemory(state, id), signal, publish: publisher(ctx), api };
}
