// wes api <METHOD> <PATH>: one authenticated request through the same HTTP layer as every
// command (credential per API family, retries of safe requests, --verbose), the answer printed as
// received. An HTTP error still prints its body on stdout, then exits by the exit-code table.
import type { Factory } from '../../factory.js';
import type { HttpClient, HttpRequest } from '../../http/client.js';
import { ApiError, ExitCode, UsageError, WesError } from '../../errors.js';
import { addQuery, fieldsObject, readLocal, typedField } from './fields.js';
import type { Field } from './syntax.js';
import type { ApiOptions } from './options.js';
import { resolveTarget, type ApiTarget } from './target.js';
import { printBody, printHead, type Answer } from './print.js';

/** Far beyond any real catalog: a server that never stops saying has_more is a server bug. */
const MAX_PAGES = 10_000;
const QUERY_METHODS = new Set(['GET', 'HEAD']);

function parseMethod(raw: string): string {
  if (!/^[A-Za-z]+$/.test(raw)) throw new UsageError(`${JSON.stringify(raw)} is not an HTTP method`, 'for example: wes api GET /api/v2/jobs/ID');
  return raw.toUpperCase();
}

async function buildRequest(f: Factory, method: string, target: ApiTarget, opts: ApiOptions): Promise<HttpRequest> {
  const fields: Field[] = [...(opts.rawField ?? [])];
  for (const raw of opts.field ?? []) fields.push(await typedField(raw, f.io.stdin));
  const headers: Record<string, string> = Object.fromEntries(opts.header ?? []);
  const idempotencyKey = headers['idempotency-key'];
  delete headers['idempotency-key'];
  const url = new URL(target.url);
  const req: HttpRequest = { family: target.family, method, url, headers, idempotencyKey };
  if (opts.input !== undefined) {
    if (QUERY_METHODS.has(method)) throw new UsageError(`--input sends a body, which ${method} does not take`);
    req.body = await readLocal(opts.input, f.io.stdin, 'the --input file');
    headers['content-type'] ??= 'application/json';
    addQuery(url, fields);
  } else if (QUERY_METHODS.has(method)) {
    addQuery(url, fields);
  } else if (fields.length) {
    req.body = JSON.stringify(fieldsObject(fields));
    headers['content-type'] ??= 'application/json';
  }
  return req;
}

async function send(http: HttpClient, req: HttpRequest): Promise<Answer> {
  const res = await http.buffer(req);
  return { status: res.status, headers: res.headers, body: res.body };
}

/** The error answer as received, so it can be printed before the error exits. */
function answerOf(err: unknown): Answer | undefined {
  if (!(err instanceof ApiError) || err.status === undefined) return undefined;
  return { status: err.status, headers: err.headers, body: err.body ?? Buffer.alloc(0) };
}

interface Page {
  data: unknown[];
  has_more: boolean;
  next_cursor?: string;
}

function asPage(answer: Answer): Page {
  let value: unknown;
  try {
    value = JSON.parse(answer.body.toString('utf8'));
  } catch {
    value = undefined;
  }
  const page = value as Partial<Page> | undefined;
  if (!page || typeof page !== 'object' || !Array.isArray(page.data) || typeof page.has_more !== 'boolean') {
    throw new WesError('--paginate follows router catalog pages, but the answer is not one (no data array and has_more)', { exitCode: ExitCode.ERROR, code: 'bad_response' });
  }
  if (page.has_more && (typeof page.next_cursor !== 'string' || page.next_cursor === '')) {
    throw new WesError('the page says has_more but carries no next_cursor', { exitCode: ExitCode.ERROR, code: 'bad_response' });
  }
  return page as Page;
}

/** Every page's `data`, in order, walking while has_more (even past short or empty pages). */
async function paginate(http: HttpClient, req: HttpRequest): Promise<unknown[]> {
  const all: unknown[] = [];
  const url = new URL(req.url);
  const used = new Set<string>();
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = asPage(await send(http, { ...req, url: new URL(url) }));
    all.push(...page.data);
    if (!page.has_more) return all;
    if (used.has(page.next_cursor!)) throw new WesError('the server handed out the same cursor twice; the walk would never end', { exitCode: ExitCode.ERROR, code: 'bad_response' });
    used.add(page.next_cursor!);
    url.searchParams.set('cursor', page.next_cursor!);
  }
  throw new WesError(`stopped after ${MAX_PAGES} pages: the server keeps answering has_more`, { exitCode: ExitCode.ERROR, code: 'bad_response' });
}

export async function run(f: Factory, args: string[], opts: ApiOptions): Promise<number> {
  const method = parseMethod(args[0]!);
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate follows pages of a GET request');
  const s = f.settings();
  const target = resolveTarget(args[1]!, { baseUrl: s.baseUrl, routerUrl: s.routerUrl }, opts.surface);
  const req = await buildRequest(f, method, target, opts);
  const http = f.http();
  if (opts.paginate) {
    try {
      f.io.printJson(await paginate(http, req));
    } catch (err) {
      const answer = answerOf(err);
      if (answer) printBody(f.io, answer);
      throw err;
    }
    return 0;
  }
  let answer: Answer;
  try {
    answer = await send(http, req);
  } catch (err) {
    const failed = answerOf(err);
    if (failed) {
      if (opts.include) printHead(f.io, failed);
      printBody(f.io, failed);
    }
    throw err;
  }
  if (opts.include) printHead(f.io, answer);
  if (method !== 'HEAD') printBody(f.io, answer);
  return 0;
}
