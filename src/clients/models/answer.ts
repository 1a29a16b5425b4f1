// A model's output as the router answered it, and how the run and result reads ask for it: JSON on
// the interface's routes; JSON or the partner's own bytes on the published ones.
import type { HttpClient, HttpRequest, HttpResponse } from '../../http/client.js';
import type { AnswerSink } from '../../http/answer-sink.js';
import { PUBLISHED_RUN_ACCEPT, type RouterApi } from '../../protocol/models.js';

export interface RunAnswer<B = Buffer> {
  /** The model output exactly as the router sent it (or what the sink it went to made of it). */
  body: B;
  headers: Record<string, string>;
  requestId: string | undefined;
}

export function runAccept(api: RouterApi): string {
  return api === 'v1' ? 'application/json' : PUBLISHED_RUN_ACCEPT;
}

/** A request whose answer goes to `sink` when given, else into memory. */
export async function answerOf<B>(http: HttpClient, req: HttpRequest, sink?: AnswerSink<B>): Promise<HttpResponse<B>> {
  return (sink ? await http.into(req, sink) : await http.buffer(req)) as HttpResponse<B>;
}
