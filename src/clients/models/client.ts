// A typed client for the models API (the model router). No printing: commands decide what to show.
// Every route goes through the router's generation (generation.ts): the interface's /v1 routes or
// the published /v2 ones, pinned or discovered.
import type { HttpClient, HttpResponse } from '../../http/client.js';
import type { AnswerSink } from '../../http/answer-sink.js';
import { checkDetail, checkListEntries, checkListFields, checkListPage } from './check.js';
import { modelPath, modelsPath, type ModelRef } from '../../protocol/model-ids.js';
import { runControlQuery, type RouterModelDetail, type RouterModelListResponse, type RunControls } from '../../protocol/models.js';
import { answerOf, runAccept, type RunAnswer } from './answer.js';

export type { RunAnswer } from './answer.js';
import { RouterGeneration } from './generation.js';
import { ModelRequests } from './requests.js';

export interface SchemaAnswer {
  status: 200 | 304;
  etag: string | undefined;
  /** The document bytes (200 only). */
  bytes?: Buffer;
  requestId: string | undefined;
}

export interface PageParams {
  limit?: number;
  cursor?: string;
}

export class ModelsClient {
  /** Queued delivery (published routes only). */
  readonly requests: ModelRequests;

  constructor(
    private readonly http: HttpClient,
    readonly generation: RouterGeneration = new RouterGeneration(http.baseUrlFor('models'), 'auto'),
  ) {
    this.requests = new ModelRequests(http, generation);
    generation.probeWithoutCredential ??= (api) => http.buffer({ family: 'models', url: modelsPath(api), query: { limit: 1 }, retries: 0, probe: true });
  }

  /** One catalog page; `limit` and `cursor` go to the server exactly as given. */
  async listPage(params: PageParams = {}): Promise<RouterModelListResponse> {
    return checkListPage(await this.pageResponse(params));
  }

  /**
   * One catalog page with its own fields checked and its entries not yet: `checkEntries` throws
   * what listPage would. A walk asks for the next page before checking this one's entries.
   */
  async listPageThenEntries(params: PageParams = {}): Promise<{ page: RouterModelListResponse; checkEntries: () => void }> {
    const res = await this.pageResponse(params);
    const page = checkListFields(res);
    return { page, checkEntries: () => checkListEntries(page, res) };
  }

  private pageResponse(params: PageParams): Promise<HttpResponse<unknown>> {
    return this.generation.call((api) => this.http.json<unknown>({ family: 'models', url: modelsPath(api), query: { limit: params.limit, cursor: params.cursor } }));
  }

  async show(ref: ModelRef): Promise<RouterModelDetail> {
    const res = await this.generation.call((api) => this.http.json<unknown>({ family: 'models', url: modelPath(ref, api) }));
    return checkDetail(res);
  }

  /** The input schema document; with `etag`, a conditional GET that may answer 304. */
  async schema(ref: ModelRef, etag?: string): Promise<SchemaAnswer> {
    const res: HttpResponse<Buffer> = await this.generation.call((api) =>
      this.http.buffer({
        family: 'models',
        url: `${modelPath(ref, api)}/openapi.json`,
        headers: { accept: 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
        accept: [304],
      }),
    );
    const status = res.status === 304 ? 304 : 200;
    return { status, etag: res.headers.etag, bytes: status === 200 ? res.body : undefined, requestId: res.requestId };
  }

  /**
   * One attempt at running a model (no retries here: the caller decides, since a 504 with
   * Retry-After means "collect later with the same key", not "try again"). With `sink`, the
   * output goes there as it arrives instead of into memory.
   */
  async runOnce<B = Buffer>(ref: ModelRef, body: Buffer, idempotencyKey: string, sink?: AnswerSink<B>, controls: RunControls = {}): Promise<RunAnswer<B>> {
    const query = runControlQuery(controls);
    // The provider controls are the published routes' (/v2) only.
    const needs = Object.keys(query).length > 0 ? ({ api: 'v2', what: 'the provider controls (--provider, --strict, --no-fallback)' } as const) : undefined;
    const res = await this.generation.call((api) =>
      answerOf<B>(
        this.http,
        {
          family: 'models',
          method: 'POST',
          url: modelPath(ref, api),
          query,
          headers: { 'content-type': 'application/json', accept: runAccept(api) },
          body,
          idempotencyKey,
          retries: 0,
          holdsAnswer: true,
          largeAnswer: true,
        },
        sink,
      ),
      needs?.api,
      needs?.what,
    );
    return { body: res.body, headers: res.headers, requestId: res.requestId };
  }
}
