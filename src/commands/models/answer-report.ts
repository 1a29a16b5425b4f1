// What a run's answer says besides the output, said once it is in, on stderr: a result served from
// the Idempotency-Key's record (collected, not billed again), the price (`X-Comfy-Credits-Used`:
// a decimal string kept as sent; absent is "not reported", never "free"; a replay restates the
// original's price), the provider that served the call after a fallback, each parameter a
// provider translation dropped, the committed-spend figures with --verbose, and with --json all of
// it as one metadata object (stdout holds the model's output unchanged).
import type { Factory } from '../../factory.js';
import { toSafeJson } from '../../util/safe-json.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { ROUTER_HEADERS } from '../../protocol/models.js';
import { readMakerHeader } from '../../protocol/maker-names.js';
import type { ModelRef } from '../../protocol/model-ids.js';

export interface AnswerFacts {
  /** The Idempotency-Key the run went out under (a synchronous run). */
  idempotencyKey?: string;
  /** The queued request it was collected from. */
  queuedRequestId?: string;
  bytes: number;
  /** Where the output went: a file, or null for standard output. */
  file: string | null;
}

function whole(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

/**
 * The dropped-params header: ONE JSON-encoded string holding an array of sentences (each with
 * commas of its own, so never split on them). A value that does not decode is shown as one entry.
 */
export function droppedParams(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed.filter((entry): entry is string => typeof entry === 'string').map((entry) => sanitizeLine(entry));
  } catch {
    // not JSON: shown as sent
  }
  return [sanitizeLine(value)];
}

export function answerMetadata(ref: ModelRef, headers: Record<string, string>, facts: AnswerFacts) {
  const credits = readMakerHeader(headers, 'creditsUsed')?.trim();
  const fallback = readMakerHeader(headers, 'fallbackProvider')?.trim();
  const limit = whole(headers[ROUTER_HEADERS.spendLimit]);
  return {
    model: ref.id,
    request_id: readMakerHeader(headers, 'requestId') ?? null,
    idempotency_key: facts.idempotencyKey ?? null,
    queued_request_id: facts.queuedRequestId ?? null,
    replayed: headers[ROUTER_HEADERS.replayed] === 'true',
    // Absent means "not reported", never "free"; a blank value is no report either.
    credits_used: credits ? credits : null,
    fallback_provider: fallback ? sanitizeLine(fallback) : null,
    dropped_params: droppedParams(readMakerHeader(headers, 'droppedParams')),
    committed_spend:
      limit === null ? null : { limit_cents: limit, current_cents: whole(headers[ROUTER_HEADERS.spendCurrent]), remaining_cents: whole(headers[ROUTER_HEADERS.spendRemaining]) },
    content_type: headers['content-type'] ?? null,
    bytes: facts.bytes,
    file: facts.file,
  };
}

export async function reportAnswer(f: Factory, ref: ModelRef, headers: Record<string, string>, facts: AnswerFacts): Promise<void> {
  const meta = answerMetadata(ref, headers, facts);
  if (meta.replayed) {
    const from = facts.idempotencyKey ? ` with Idempotency-Key ${facts.idempotencyKey}` : '';
    f.io.info(sanitizeLine(`collected the result of the earlier call${from} (Idempotent-Replayed): not billed again`));
  }
  // With --json the metadata object says all of it.
  if (meta.fallback_provider && !f.io.json) f.io.info(`served by the fallback provider ${meta.fallback_provider} (the model's own provider failed)`);
  for (const dropped of f.io.json ? [] : meta.dropped_params) f.io.info(`dropped by the provider translation: ${dropped}`);
  if (meta.credits_used !== null && !f.io.json) f.io.info(`credits used: ${sanitizeLine(meta.credits_used)}${meta.replayed ? ' (the original run, charged once)' : ''}`);
  if (f.io.verbose) {
    if (meta.credits_used === null) f.io.debug('credits used: not reported (which does not mean free)');
    const spend = meta.committed_spend;
    if (spend) {
      const { cents } = await import('../../render/error.js');
      f.io.debug(`committed spend: limit ${cents(spend.limit_cents)}, in flight ${cents(spend.current_cents ?? NaN)}, remaining ${cents(spend.remaining_cents ?? NaN)}`);
    }
  }
  if (f.io.json) f.io.stderr.write(`${toSafeJson({ metadata: meta })}\n`);
}
