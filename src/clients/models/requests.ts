// Queued delivery of the published router (its `/v2` routes only): a run submitted answers at once
// with a request id and the absolute status_url, response_url and cancel_url of the request, which
// are authoritative: its state, its result and a cancel are asked for there. A path is composed
// from the model id and request id only for a request whose URLs were never seen (submitted
// elsewhere, or before they were kept here). One request each, no waiting and no retries here:
// queue-wait.ts polls and the router's rules (run.ts) decide what is sent again.
import type { HttpClient, HttpResponse } from '../../http/client.js';
import type { AnswerSink } from '../../http/answer-sink.js';
import { parseRetryAfter } from '../../http/retry.js';
import { decodeError } from '../../http/decode-error.js';
import { requestPath, requestsPath, type ModelRef } from '../../protocol/model-ids.js';
import { ROUTER_HEADERS, type RouterQueueUrls, type RouterQueueCancelResponse, type RouterQueueStatusResponse, type RouterQueueSubmitResponse } from '../../protocol/models.js';
import { answerOf, runAccept, type RunAnswer } from './answer.js';
import { checkCancel, checkQueueState } from './check.js';
import type { RouterGeneration } from './generation.js';

export interface QueueRead<T> {
  value: T;
  /** Retry-After: when asking again is worth it (status and 202 result reads). */
  retryAfterMs: number | undefined;
  requestId: string | undefined;
  headers: Record<string, string>;
}

export type ResultRead<B> = { ready: true; answer: RunAnswer<B> } | ({ ready: false } & QueueRead<RouterQueueStatusResponse>);

function read<T>(res: HttpResponse<unknown>, value: T): QueueRead<T> {
  return { value, retryAfterMs: parseRetryAfter(res.headers['retry-after']), requestId: res.requestId, headers: res.headers };
}

export class ModelRequests {
  /** The URLs each request was given, by request id (from its submit, or the local history). */
  private readonly links = new Map<string, RouterQueueUrls>();

  constructor(
    private readonly http: HttpClient,
    private readonly generation: RouterGeneration,
  ) {}

  /** Keeps the URLs a request was given: later reads go there. Ones that are not http(s) URLs are not kept. */
  remember(requestId: string, urls: Partial<RouterQueueUrls> | Record<string, string> | undefined): void {
    const u = urls as Partial<RouterQueueUrls> | undefined;
    if (!u || ![u.status_url, u.response_url, u.cancel_url].every((link) => typeof link === 'string' && /^https?:\/\//i.test(link))) return;
    this.links.set(requestId, { status_url: u.status_url!, response_url: u.response_url!, cancel_url: u.cancel_url! });
  }

  /** Where `role` of a request is: the URL it was given, else the composed path. */
  private where(ref: ModelRef, requestId: string, role: keyof RouterQueueUrls): string {
    const given = this.links.get(requestId)?.[role];
    if (given) return given;
    return role === 'response_url' ? requestPath(ref, requestId) : requestPath(ref, requestId, role === 'status_url' ? 'status' : 'cancel');
  }

  /** Submits a run to the queue (201: the handle). Marked replayed when the key's record answered. */
  async submit(ref: ModelRef, body: Buffer, idempotencyKey: string): Promise<QueueRead<RouterQueueSubmitResponse> & { replayed: boolean }> {
    const res = await this.generation.call(
      () =>
        this.http.json<unknown>({
          family: 'models',
          method: 'POST',
          url: requestsPath(ref),
          headers: { 'content-type': 'application/json' },
          body,
          idempotencyKey,
          retries: 0,
        }),
      'v2',
    );
    const answer = { ...read(res, checkQueueState(res, 'queued request')), replayed: res.headers[ROUTER_HEADERS.replayed] === 'true' };
    this.remember(answer.value.request_id, answer.value);
    return answer;
  }

  async status(ref: ModelRef, requestId: string): Promise<QueueRead<RouterQueueStatusResponse>> {
    const res = await this.generation.call(() => this.http.json<unknown>({ family: 'models', url: this.where(ref, requestId, 'status_url'), retries: 0 }), 'v2');
    return read(res, checkQueueState(res, 'request status', requestId));
  }

  /** The result: the output (200, into `sink` when given), or the request's state while it is not ready (202). */
  async result<B = Buffer>(ref: ModelRef, requestId: string, sink?: AnswerSink<B>): Promise<ResultRead<B>> {
    const res = await this.generation.call(
      (api) => answerOf<B | Buffer>(this.http, { family: 'models', url: this.where(ref, requestId, 'response_url'), headers: { accept: runAccept(api) }, retries: 0, largeAnswer: true, notToSink: [202] }, sink),
      'v2',
    );
    if (res.status === 202) {
      const state = { ...res, body: parsed(res.body as Buffer) };
      return { ready: false, ...read(state, checkQueueState(state, 'result read (202)', requestId)) };
    }
    return { ready: true, answer: { body: res.body as B, headers: res.headers, requestId: res.requestId } };
  }

  /** Asks for a cancel: accepted (202 CANCELLATION_REQUESTED) or the request had already completed (409). */
  async cancel(ref: ModelRef, requestId: string): Promise<QueueRead<RouterQueueCancelResponse> & { accepted: boolean }> {
    const res = await this.generation.call(
      () => this.http.buffer({ family: 'models', method: 'PUT', url: this.where(ref, requestId, 'cancel_url'), headers: { accept: 'application/json' }, accept: [409], retries: 0 }),
      'v2',
    );
    const body = parsed(res.body);
    // A 409 in the router's error shape is not "already completed": it is decoded as the error it is.
    if (res.status === 409 && !isCancelAnswer(body)) throw decodeError({ origin: 'models', status: 409, headers: res.headers, body: res.body, url: res.url });
    const answer = { ...res, body };
    return { ...read(answer, checkCancel(answer, requestId)), accepted: res.status !== 409 };
  }
}

function parsed(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function isCancelAnswer(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'ALREADY_COMPLETED';
}
