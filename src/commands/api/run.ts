// wes api <METHOD> <PATH>: one authenticated request through the same HTTP layer as every
// command (credential per API family, retries of safe requests, --verbose), the answer printed as
// received. An HTTP error still prints its body on stdout, then exits by the exit-code table.
import type { Factory } from '../../factory.js';
import type { HttpClient, HttpRequest } from '../../http/client.js';
import { ApiError, ExitCode, UsageError, WesError } from '../../errors.js';
import { addQuery, fieldsObject, readLocal, typedField } from './fields.js';
import { familyAlias, resolveTarget, type ApiTarget } from './target.js';
import { printBody, printHead, type Answer } from './print.js';
import { keyedFailure, singleUseRoute } from '../../features/keyed/api-post.js';
import { Option } from 'commander';
import { API_FAMILIES, type ApiFamily } from '../../protocol/api-families.js';
import { flag, nonEmpty, repeatableOption, valueOption, type OptionsDeclaration, type OptionsRule, type TypedOption } from '../typed-options.js';
import { parseHeader, rawField, readsStdin, typedFieldText, type Field } from './syntax.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface ApiOptions {
  /** --surface: which API family. */
  surface?: ApiFamily;
  rawField?: Field[];
  /** -F as typed (KEY=VALUE checked); @FILE values are read when the request is built. */
  field?: string[];
  header?: Array<[string, string]>;
  input?: string;
  include?: boolean;
  paginate?: boolean;
}

/** --surface jobs|models|legacy; the old name `router` still means models. */
function familyOption(): TypedOption<ApiFamily> {
  const option = new Option('--surface <family>', 'the API family whose base URL and credential to use (default: from the path)').choices(API_FAMILIES);
  const strict = option.parseArg!;
  return option.argParser((value: string, previous: unknown) => strict(familyAlias(value), previous) as ApiFamily);
}

const options = (): OptionsDeclaration<ApiOptions> => ({
  surface: familyOption(),
  rawField: repeatableOption('-f, --raw-field <key=value>', 'a string parameter (repeatable; key[]=v appends to an array)', rawField),
  field: repeatableOption('-F, --field <key=value>', 'a typed parameter: JSON when it parses (5, true, null, {...}), @FILE reads a file (repeatable)', typedFieldText),
  header: repeatableOption('-H, --header <header>', 'an extra request header "Name: value" (repeatable)', parseHeader),
  input: valueOption('--input <file>', 'the request body from a file, or - for standard input (fields then go to the query)', nonEmpty),
  include: flag('-i, --include', 'print the status line and response headers before the body'),
  paginate: flag('--paginate', 'follow router pages (next_cursor while has_more) and print every page\'s data as one JSON array').conflicts('include'),
});

/** Standard input can be read once: by --input - or by one -F KEY=@-. */
const oneStdinReader: OptionsRule<ApiOptions> = ({ opts }) => {
  const readers = (opts.input === '-' ? 1 : 0) + (opts.field ?? []).filter(readsStdin).length;
  return readers > 1 ? 'standard input can be read once: give it to --input - or to one -F KEY=@-, not both' : undefined;
};

const rules: Array<OptionsRule<ApiOptions>> = [oneStdinReader];

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

const positional = { method: arg('<method>', undefined, { values: { kind: 'choices', choices: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] } }), path: arg('<path>', undefined, { values: { kind: 'text' } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: ApiOptions): Promise<number> {
  const method = parseMethod(args.method);
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate follows pages of a GET request');
  const s = f.settings();
  const target = resolveTarget(args.path, { baseUrl: s.baseUrl, routerUrl: s.routerUrl, engineUrl: s.engineUrl }, opts.surface);
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
  const singleUse = singleUseRoute(method, target, s.baseUrl, req.idempotencyKey);
  let answer: Answer;
  try {
    answer = await send(http, req);
  } catch (err) {
    const failed = answerOf(err);
    if (failed) {
      if (opts.include) printHead(f.io, failed);
      printBody(f.io, failed);
    }
    throw singleUse ? keyedFailure(err, req.idempotencyKey!, singleUse) : err;
  }
  if (opts.include) printHead(f.io, answer);
  if (method !== 'HEAD') printBody(f.io, answer);
  return 0;
}

export default defineVerb({
  path: ['api'],
  args: positional,
  options: options(),
  rules,
  help: {
    summary: 'Send an authenticated request to a path of an API family and print the answer as received',
    group: 'Setup and tools:',
    after: [
      `
The API family follows from the path: /api/v2/... is jobs, the job API (Authorization: Bearer API
key), /v1/... and /v2/models/... models, the model router (Bearer router token), any other
/api/... legacy, the cloud API v1 or the engine (X-API-Key; the engine's own key, engine_key).
Paths are appended to the family's base URL (legacy: the engine URL when one is set); a full URL
is accepted only on a configured origin, and each origin gets only its own credential. Fields go
to the query string for GET and HEAD, else into a JSON body. The configured credential wins over
a -H with the same name. Reads are retried; a POST is sent again only after a connect failure,
or (with an Idempotency-Key) a router call, or a job API 429. A job submit or asset upload with an
Idempotency-Key is single use, as in \`wes jobs submit\`: an answer lost or a 5xx is never sent again
and ends in doubt (exit 11) naming \`wes jobs find --key KEY\`.
Redirects are not followed (--include shows the Location).

Output: the body exactly as received when piped; on a terminal JSON is indented and control
characters are removed. An HTTP error still prints its body, then exits by \`wes help exit-codes\`.

Examples:
  $ wes api GET /api/v2/jobs/$JOB_ID --include
  $ wes api GET /v1/models -F limit=100 --paginate | jq -r '.[].id'
  $ wes api POST /api/prompt --input workflow-body.json`,
    ],
  },
  run,
});
