// POST /v1/models/{provider}/{model}: validate, admit against the credential's limits, run the
// model, and hold the connection up to the router deadline. With an Idempotency-Key the
// generation is kept, so a retry after 504 deadline_exceeded collects it.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { RequestContext } from '../contract.js';
import { BodyError, jsonTooDeep, readBody, TOO_DEEP_MESSAGE } from '../http-kit.js';
import type { RouterValidationErrorDetail } from '../../protocol/models.js';
import type { ModelsCaller } from './auth.js';
import type { CatalogModel } from './catalog.js';
import { schemaDocument } from './docs.js';
import { IdempotencyStore, isTransient } from './idempotency.js';
import { admit } from './limits.js';
import type { JsonObject, ModelCall, ModelOutcome, PublishedFile } from './stock/types.js';
import { invalidInput, modelsError, sendJsonBytes } from './respond.js';
import { modelMemory, type ModelsState } from './state.js';

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;
const MAX_KEY_LENGTH = 255;
const RETRY_AFTER_SECONDS = '1';

function digest(...parts: Array<string | Buffer>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
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

function validate(state: ModelsState, model: CatalogModel, value: unknown): RouterValidationErrorDetail[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ loc: ['body'], msg: 'Input should be a valid dictionary or object', type: 'model_attributes_type', input: value }];
  }
  const problems = schemaDocument(state, model).validate(value);
  return [...problems, ...(model.behaviour.check?.(value as JsonObject) ?? [])];
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

const TIMED_OUT = Symbol('timed out');

function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function sendOutcome(ctx: RequestContext, outcome: ModelOutcome): void {
  if (outcome.kind === 'ok') return sendJsonBytes(ctx, 200, outcome.body);
  if (outcome.kind === 'invalid') return invalidInput(ctx, outcome.detail);
  modelsError(ctx, outcome.status, outcome.errorType, outcome.detail, outcome.headers);
}

async function deliver(ctx: RequestContext, state: ModelsState, outcome: Promise<ModelOutcome>, keyed: boolean): Promise<void> {
  const result = await within(outcome, state.deadlineMs);
  if (result !== TIMED_OUT) return sendOutcome(ctx, result);
  if (keyed) {
    modelsError(ctx, 504, 'deadline_exceeded',
      `The router stopped waiting after ${state.deadlineMs} ms; the generation is still running at the provider. Retry with the same Idempotency-Key to collect it.`,
      { 'retry-after': RETRY_AFTER_SECONDS });
  } else {
    modelsError(ctx, 504, 'deadline_exceeded',
      `The router stopped waiting after ${state.deadlineMs} ms. Nothing was rejected; the same request may be retried (send an Idempotency-Key to collect a generation instead of starting another).`);
  }
}

function idempotencyKey(ctx: RequestContext): { key?: string; problem?: RouterValidationErrorDetail } {
  const header = ctx.req.headers['idempotency-key'];
  if (header === undefined) return {};
  const key = Array.isArray(header) ? header[0] ?? '' : header;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    return { problem: { loc: ['header', 'Idempotency-Key'], msg: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`, type: 'string_too_long', ctx: { max_length: MAX_KEY_LENGTH } } };
  }
  return { key };
}

export async function runModel(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel): Promise<void> {
  const id = model.entry.id;
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) ctx.state.options.log?.(`router client_disconnected ${ctx.requestId} ${id}`);
  });
  const type = String(ctx.req.headers['content-type'] ?? 'application/json');
  if (!JSON_TYPE.test(type)) throw new BodyError(415, `expected a JSON body (Content-Type: application/json), got ${type}`);
  const raw = await readBody(ctx);
  const { key, problem: keyProblem } = idempotencyKey(ctx);
  const parsed = parseBody(raw);
  const early = [keyProblem, parsed.problem].filter((p): p is RouterValidationErrorDetail => p !== undefined);
  if (early.length > 0) return invalidInput(ctx, early);

  const bodyDigest = digest(raw);
  const scope = key === undefined ? undefined : IdempotencyStore.scope(caller.token, id, key);
  if (scope !== undefined) {
    const kept = state.idempotency.get(scope);
    if (kept && kept.bodyDigest !== bodyDigest) {
      return invalidInput(ctx, [{ loc: ['header', 'Idempotency-Key'], msg: 'This Idempotency-Key was already used with a different request body', type: 'idempotency_key_reuse' }]);
    }
    if (kept) return deliver(ctx, state, kept.outcome, true);
  }

  const problems = validate(state, model, parsed.value);
  if (problems.length > 0) return invalidInput(ctx, problems);
  const input = parsed.value as JsonObject;
  const cost = model.behaviour.costCents(input);
  if (caller.broke && cost > 0) {
    return modelsError(ctx, 402, 'insufficient_credits', `The workspace has no credits left; a call to ${id} costs ${cost} cents.`);
  }
  const admission = admit(state.usage, caller.token, cost, ctx.state.options.routerLimits);
  if (!admission.ok) return modelsError(ctx, 429, 'concurrency_limit_exceeded', admission.detail, admission.headers);

  const call: ModelCall = {
    input,
    raw,
    credential: caller.token,
    callDigest: digest(caller.token, id, raw),
    memory: modelMemory(state, id),
    signal: state.shutdown.signal,
    publish: publisher(ctx),
  };
  const outcome = model.behaviour
    .run(call)
    .catch((err: unknown): ModelOutcome => {
      ctx.state.options.log?.(`router internal_error ${ctx.requestId} ${id}: ${(err as Error).message}`);
      return { kind: 'error', status: 500, errorType: 'internal_error', detail: 'The router failed while running the model.' };
    })
    .finally(admission.release);
  if (scope !== undefined) {
    state.idempotency.keep(scope, { bodyDigest, outcome, keptAt: Date.now(), size: raw.length });
    void outcome.then((settled) => {
      if (isTransient(settled)) state.idempotency.forget(scope);
    });
  }
  await deliver(ctx, state, outcome, scope !== undefined);
}
