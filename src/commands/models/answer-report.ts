// What a run's answer says besides the output, said once it is in: a result served from the
// Idempotency-Key's record (collected, not billed again), the price (`X-Service-Credits-Used`) and
// the committed-spend figures with --verbose, and with --json all of it as one metadata object on
// stderr (stdout holds the model's output unchanged).
import type { Factory } from '../../factory.js';
import { toSafeJson } from '../../util/safe-json.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { ROUTER_HEADERS } from '../../protocol/models.js';
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

export function answerMetadata(ref: ModelRef, headers: Record<string, string>, facts: AnswerFacts) {
  const credits = headers[ROUTER_HEADERS.creditsUsed]?.trim();
  const limit = whole(headers[ROUTER_HEADERS.spendLimit]);
  return {
    model: ref.id,
    request_id: headers[ROUTER_HEADERS.requestId] ?? null,
    idempotency_key: facts.idempotencyKey ?? null,
    queued_request_id: facts.queuedRequestId ?? null,
    replayed: headers[ROUTER_HEADERS.replayed] === 'true',
    // Absent means "not reported", never "free"; a blank value is no report either.
    credits_used: credits ? credits : null,
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
  if (f.io.verbose) {
    f.io.debug(`credits used: ${meta.credits_used ?? 'not reported'}${meta.replayed ? ' (the original run, charged once)' : ''}`);
    const spend = meta.committed_spend;
    if (spend) {
      const { cents } = await import('../../render/error.js');
      f.io.debug(`committed spend: limit ${cents(spend.limit_cents)}, in flight ${cents(spend.current_cents ?? NaN)}, remaining ${cents(spend.remaining_cents ?? NaN)}`);
    }
  }
  if (f.io.json) f.io.stderr.write(`${toSafeJson({ metadata: meta })}\n`);
}
