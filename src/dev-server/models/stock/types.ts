// What one dev-router model is: its input schema, its price, extra provider checks, and how it
// answers a call. The router (run.ts) owns auth, limits, idempotency and the deadline around it.
import { setTimeout as delay } from 'node:timers/promises';
import type { RouterApi, RouterValidationErrorDetail } from '../../../protocol/models.js';

export type JsonObject = Record<string, unknown>;

export interface PublishedFile {
  url: string;
  expires_at: string;
}

export interface ModelCall {
  input: JsonObject;
  /** The request body exactly as received. */
  raw: Buffer;
  credential: string;
  /** Stable for the same credential and body: lets a model recognise a repeated call. */
  callDigest: string;
  /** Per-server, per-model memory (attempt counters, rate windows). */
  memory: Map<string, unknown>;
  /** Aborted when the server closes: a model's waits end with it instead of holding the process. */
  signal: AbortSignal;
  /** Stores bytes as an asset and returns a signed URL on the signed listener (no credentials needed). */
  publish(bytes: Buffer, name: string, contentType: string): Promise<PublishedFile>;
  /** The routes the call came in on: the interface's v1 answers JSON only; the published v2 passes a partner's bytes through. */
  api: RouterApi;
}

export type ModelOutcome =
  /** `contentType` absent: application/json. */
  | { kind: 'ok'; body: Buffer; contentType?: string; fallbackProvider?: string; droppedParams?: string[] }
  /** `upstream`: the provider's own refusal of a malformed request (its status and reason), sent on the published routes only. */
  | { kind: 'error'; status: number; errorType: string; detail: string; headers?: Record<string, string>; upstream?: { status: number; detail: string }; refusalSubject?: string }
  | { kind: 'invalid'; detail: RouterValidationErrorDetail[] };

export interface ModelBehaviour {
  id: string;
  summary: string;
  chargesOnPolicyRejection: string;
  /** `components.schemas` of the input document; the request body is `#/components/schemas/Input`. */
  schemas(): JsonObject;
  /** Price of the call in US cents, committed while it is in flight. Input is schema-checked already. */
  costCents(input: JsonObject): number;
  /** On the published routes: the media type of a partner that answers bytes (absent: JSON). */
  outputMediaType?: string;
  /** Provider-side checks beyond the schema, with the provider's own `type` values. */
  check?(input: JsonObject): RouterValidationErrorDetail[];
  run(call: ModelCall): Promise<ModelOutcome>;
}

export function okJson(value: unknown): ModelOutcome {
  return { kind: 'ok', body: Buffer.from(JSON.stringify(value)) };
}

export function failure(status: number, errorType: string, detail: string, headers?: Record<string, string>): ModelOutcome {
  return { kind: 'error', status, errorType, detail, ...(headers ? { headers } : {}) };
}

/** Waits `ms`; rejects at once when `signal` aborts (the server is closing). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal });
}

export function stringField(input: JsonObject, key: string, fallback = ''): string {
  const value = input[key];
  return typeof value === 'string' ? value : fallback;
}

export function numberField(input: JsonObject, key: string, fallback: number): number {
  const value = input[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
