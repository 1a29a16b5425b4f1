// The differential test: every exchange recorded from the reference job API server
// (comfy-api-proxy in front of ComfyUI 0.3.64; reference/v2-proxy-edges.json, a verbatim copy of
// ../shared/observations/recordings/v2-proxy-edges.json) is sent again, in order, to
// `wes dev-server --surface self-hosted --jobs-port`, and what is comparable is compared: the
// status, the Content-Type, the error code, the key set and JSON types of the body (recursively),
// the notable headers (Allow, Content-Range, Content-Length, Retry-After, Location), plain-text
// bodies, and how each event stream ended. Ids the server made (jobs, assets, outputs) and blob
// hashes are mapped from the recorded ones to the replayed ones as the answers come. A new
// recording is a new test: replace the file. The differences kept on purpose are listed in KEPT.
// The replay and the run of the recordings' workflows each have a server of their own (the
// engine's pace, which both hurry; the replay's race faults), so they run side by side.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { seededRandom } from '../../src/dev-server/engine/prng.js';
import { addFaults, readEventStream, useServerPerTest, waitForJob, type Json } from '../helpers/dev-server.js';
import { hurried } from '../helpers/hurry.js';

interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  body_text?: string;
  server?: string;
}
interface RecordedResponse {
  status: number;
  headers: [string, string][];
  body?: unknown;
  body_text?: string;
  events?: { t: number; raw: string }[];
  raw_text?: string;
}
interface Exchange {
  case: string;
  part: string;
  request: RecordedRequest;
  response: RecordedResponse;
}
interface MultipartPart {
  name: string;
  value?: string;
  filename?: string;
  content_type?: string;
  bytes?: string;
}

const RECORDING = JSON.parse(readFileSync(join(import.meta.dirname, 'reference', 'v2-proxy-edges.json'), 'utf8')) as { exchanges: Exchange[] };

/**
 * Differences kept on purpose, each with why. A difference found that is not listed fails the test.
 *  - Exchanges with the ENGINE (request.server set: ComfyUI's own routes behind the server) are not
 *    replayed here: the engine imitation has its own recorded tests (self-hosted-engine.test.ts).
 *  - Values are compared only where a client reads them (valueDiffs): the form of every time,
 *    how far `expires_at` and `url_expires_at` lie ahead, `outputs_reused`, error messages. Not
 *    ids, and not PNG bytes (another encoder: other sizes, so Content-Length and Content-Range
 *    are compared by presence and form, not by number).
 *  - Times: Python's `isoformat()` as the real server writes them, but from a millisecond clock,
 *    so the last three of the six fraction digits are always 0.
 *  - Outputs carry `job_id`: every recorded answer of this release has it (v2-proxy-*.json), and
 *    the published Output schema has it (optional; Comfy-Org/docs openapi-v2.yaml). The newest
 *    stored source of the server, run on 2026-11-28 (../fixtures/job-api-proxy-latest), writes
 *    none; wes reads both (self-hosted-values.test.ts holds the key sets).
 *  - `outputs_reused` follows ComfyUI's cache (the prompt run last), but the engine still runs the
 *    nodes the cache would serve (their progress and time are spent). An unchanged output node
 *    writes its file again; as this engine's counter starts at 1 for each job, the name is the one
 *    ComfyUI answers from its cache, and the output id is new on both. No exchange here reruns.
 *  - HEAD by-hash has no Content-Type, as recorded (aiohttp 3.11); the 2026-11-28 run on aiohttp
 *    3.8.4 sent `application/octet-stream`, which is that aiohttp's, not the server's.
 *  - Event streams are compared by how they end (final status, whether an output came, whether it
 *    came after the final status): event counts and timings are the engine's. Racy endings are
 *    asked for with the `race` fault the recorded stream shows (the real server raced; the
 *    dev-server races only when asked), and the keep-alive interval is 300 ms, not 15 s.
 *  - A transient `expired` read (part 3) is asked for with the `expired-read` race fault.
 *  - Blocker jobs (EmptyImage 4096x4096, batch 2) are sent at 64x64: the time a job takes is set
 *    by `stepMs` on the dev-server, not by its pixels.
 *  - Job lists: the `jobs` array is not compared (the real server held 470-505 jobs, and
 *    `truncated`'s semantics are issue 43's), only the answer's keys and types.
 *  - A job the recording polled without recording its submit (parts 3 and 10) is submitted here
 *    first with the recorded invert workflow.
 */
const KEPT: { what: string; applies: (ex: Exchange, diff: string) => boolean }[] = [
  { what: 'list contents', applies: (ex, diff) => ex.request.method === 'GET' && /^\/api\/v2\/jobs(\?|$)/.test(ex.request.path) && diff.startsWith('body.jobs') },
];

const INVERT = JSON.parse(readFileSync(join(import.meta.dirname, 'reference', 'invert.json'), 'utf8')) as Json;

/** A 268-byte-like 8x8 PNG of seeded random pixels, the same for the same label. */
function labelledPng(label: string): Buffer {
  const random = seededRandom([...label].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
  const png = new PNG({ width: 8, height: 8 });
  for (let i = 0; i < png.data.length; i++) png.data[i] = i % 4 === 3 ? 255 : Math.floor(random() * 256);
  return PNG.sync.write(png);
}

function header(response: RecordedResponse, name: string): string | undefined {
  return response.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** The recorded ids and hashes with the replayed ones they stand for; longest first when rewriting. */
class IdMap {
  private readonly map = new Map<string, string>();
  set(recorded: unknown, mine: unknown): void {
    if (typeof recorded === 'string' && typeof mine === 'string' && recorded !== mine) this.map.set(recorded, mine);
  }
  has(recorded: string): boolean {
    return this.map.has(recorded);
  }
  rewrite(text: string): string {
    let out = text;
    for (const [recorded, mine] of [...this.map].sort((a, b) => b[0].length - a[0].length)) out = out.split(recorded).join(mine);
    return out;
  }
  /** Learns the ids of an answer about the same thing: a job (its outputs by position), an asset. */
  learn(recorded: unknown, mine: unknown): void {
    if (!isObject(recorded) || !isObject(mine)) return;
    this.set(recorded.id, mine.id);
    if (typeof recorded.hash === 'string') this.set(recorded.hash, mine.hash);
    if (Array.isArray(recorded.outputs) && Array.isArray(mine.outputs)) {
      recorded.outputs.forEach((output, i) => this.learn(output, mine.outputs[i]));
    }
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Where `mine` differs from `recorded` in shape: key sets, JSON types, array lengths. */
function shapeDiffs(recorded: unknown, mine: unknown, at: string, out: string[]): void {
  if (kind(recorded) !== kind(mine)) {
    out.push(`${at}: ${kind(recorded)} recorded, ${kind(mine)} here`);
    return;
  }
  if (Array.isArray(recorded) && Array.isArray(mine)) {
    if (recorded.length !== mine.length) out.push(`${at}: ${recorded.length} items recorded, ${mine.length} here`);
    for (let i = 0; i < Math.min(recorded.length, mine.length); i++) shapeDiffs(recorded[i], mine[i], `${at}[${i}]`, out);
    return;
  }
  if (isObject(recorded) && isObject(mine)) {
    const a = Object.keys(recorded).sort().join(',');
    const b = Object.keys(mine).sort().join(',');
    if (a !== b) out.push(`${at}: keys {${a}} recorded, {${b}} here`);
    for (const key of Object.keys(recorded)) if (key in mine) shapeDiffs(recorded[key], mine[key], `${at}.${key}`, out);
  }
}

/** Python's `datetime.isoformat()` of a UTC time: microseconds (none when 0) and `+00:00`. */
const PYTHON_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/;

/**
 * Where values differ that a client reads: the form of every `*_at` time; how far a job's
 * `expires_at` lies after its `created_at`, and a `url_expires_at` after the answer's `Date`
 * (within the Date header's second); `outputs_reused`. `moments` are the answers' Date headers.
 */
function valueDiffs(recorded: unknown, mine: unknown, at: string, moments: { recorded: number; mine: number }, out: string[]): void {
  if (Array.isArray(recorded) && Array.isArray(mine)) {
    for (let i = 0; i < Math.min(recorded.length, mine.length); i++) valueDiffs(recorded[i], mine[i], `${at}[${i}]`, moments, out);
    return;
  }
  if (!isObject(recorded) || !isObject(mine)) return;
  for (const [key, want] of Object.entries(recorded)) {
    const got = mine[key];
    if (key.endsWith('_at') && typeof want === 'string' && typeof got === 'string' && PYTHON_TIME.test(want) !== PYTHON_TIME.test(got)) {
      out.push(`${at}.${key}: ${want} recorded, ${got} here (another form)`);
    }
    if (key === 'outputs_reused' && want !== got) out.push(`${at}.outputs_reused: ${String(want)} recorded, ${String(got)} here`);
    valueDiffs(want, got, `${at}.${key}`, moments, out);
  }
  const span = (body: Json, from: number, to: string) => Date.parse(body[to] as string) - from;
  if (typeof recorded.expires_at === 'string' && typeof recorded.created_at === 'string' && typeof mine.expires_at === 'string') {
    const want = span(recorded, Date.parse(recorded.created_at), 'expires_at');
    const got = span(mine, Date.parse(mine.created_at as string), 'expires_at');
    if (Math.abs(want - got) > 1000) out.push(`${at}.expires_at: created_at + ${want / 1000} s recorded, + ${got / 1000} s here`);
  }
  if (typeof recorded.url_expires_at === 'string' && typeof mine.url_expires_at === 'string' && Number.isFinite(moments.recorded) && Number.isFinite(moments.mine)) {
    const want = span(recorded, moments.recorded, 'url_expires_at');
    const got = span(mine, moments.mine, 'url_expires_at');
    if (Math.abs(want - got) > 2000) out.push(`${at}.url_expires_at: Date + ${Math.round(want / 1000)} s recorded, + ${Math.round(got / 1000)} s here`);
  }
}

/** A request body as it goes out: blockers shrunk, recorded ids and hashes replaced. */
function shrink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shrink);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) out[key] = (key === 'width' || key === 'height') && typeof child === 'number' && child > 256 ? 64 : shrink(child);
  return out;
}

function requestBody(ex: Exchange, ids: IdMap): { body?: string | FormData; contentType?: string } {
  const { body, body_text: text } = ex.request;
  if (text !== undefined) return { body: ids.rewrite(text) };
  if (body === undefined) return {};
  if (isObject(body) && Array.isArray(body.multipart)) {
    const form = new FormData();
    for (const part of body.multipart as MultipartPart[]) {
      if (part.bytes !== undefined) {
        const label = /bytes (\w)$/.exec(part.bytes)?.[1] ?? part.filename ?? 'file';
        form.append(part.name, new Blob([labelledPng(label)], { type: part.content_type ?? 'application/octet-stream' }), part.filename);
      } else {
        form.append(part.name, ids.rewrite(part.value ?? ''));
      }
    }
    return { body: form, contentType: 'multipart' };
  }
  return { body: ids.rewrite(JSON.stringify(shrink(body))) };
}

const JOB_PATH = /^\/api\/v2\/jobs\/([0-9a-f-]{36})$/;

interface Replayed {
  status: number;
  headers: Headers;
  text: string;
}

class Replay {
  readonly ids = new IdMap();
  constructor(private readonly server: DevServerHandle) {}

  private send(ex: Exchange, path: string): Promise<Response> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(ex.request.headers)) {
      if (!['content-length', 'host', 'connection'].includes(name.toLowerCase())) headers[name] = value;
    }
    const { body, contentType } = requestBody(ex, this.ids);
    if (contentType === 'multipart') delete headers['Content-Type'];
    return fetch(`${this.server.jobsUrl}${path}`, { method: ex.request.method, headers, ...(body !== undefined ? { body } : {}) });
  }

  /** A job the recording read without recording its submit: made here with the recorded workflow. */
  private async ensureJob(recordedId: string): Promise<void> {
    if (this.ids.has(recordedId)) return;
    const res = await fetch(`${this.server.jobsUrl}/api/v2/jobs`, { method: 'POST', body: JSON.stringify({ workflow: INVERT }) });
    this.ids.set(recordedId, ((await res.json()) as Json).id);
  }

  async run(ex: Exchange): Promise<Replayed> {
    const { method } = ex.request;
    const recorded = ex.response;
    const jobRead = method === 'GET' ? JOB_PATH.exec(ex.request.path) : null;
    if (jobRead && recorded.status === 200) await this.ensureJob(jobRead[1]!);
    const path = this.ids.rewrite(ex.request.path);
    if (ex.request.path.endsWith('/events')) await this.askRace(ex, path);
    if (jobRead && recorded.status === 200 && isObject(recorded.body)) return this.readJobUntil(ex, path, recorded.body);
    const res = await this.send(ex, path);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** The stream's recorded ending, asked for as a race fault when the real server raced. */
  private async askRace(ex: Exchange, path: string): Promise<void> {
    const ending = streamEnding(ex.response.raw_text ?? '');
    const race = ending.final === 'running' ? 'end-running' : ending.final === 'expired' ? 'end-expired' : ending.keepalive ? 'late' : ending.outputAfter ? 'output-after' : undefined;
    if (race) await addFaults(this.server, { match: `GET ${path}`, action: 'race', race });
  }

  /**
   * Polls the job until it reads as the recording did (its status and its number of outputs). While
   * it waits for an end, nothing else is sent, so the engine's steps are hurried (1 ms each): time
   * runs faster, the order of what happens stays. Not while waiting for `queued` or `running`,
   * which a hurried job could run past between two reads.
   */
  private async readJobUntil(ex: Exchange, path: string, body: Json): Promise<Replayed> {
    if (body.status === 'expired') await addFaults(this.server, { match: `GET ${path}`, action: 'race', race: 'expired-read' });
    const poll = () => this.pollJob(ex, path, body);
    return ['succeeded', 'failed', 'canceled'].includes(body.status) ? hurried(this.server, poll) : poll();
  }

  private async pollJob(ex: Exchange, path: string, body: Json): Promise<Replayed> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await this.send(ex, path);
      const text = await res.text();
      const job = JSON.parse(text) as Json;
      const outputs = Array.isArray(body.outputs) ? body.outputs.length : 0;
      if ((job.status === body.status && job.outputs?.length === outputs) || Date.now() > deadline) return { status: res.status, headers: res.headers, text };
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

function streamEnding(raw: string): { final?: string; output: boolean; outputAfter: boolean; keepalive: boolean } {
  let final: string | undefined;
  let output = false;
  let outputAfter = false;
  for (const block of raw.split('\n\n')) {
    const name = /^event: (\w+)/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (name === 'status' && data) final = (JSON.parse(data) as Json).status as string;
    if (name === 'output') {
      output = true;
      if (final && ['succeeded', 'failed', 'canceled'].includes(final)) outputAfter = true;
    }
  }
  return { final, output, outputAfter, keepalive: raw.includes(': keepalive') };
}

const NOTABLE = ['allow', 'content-range', 'content-length', 'retry-after', 'location'];

/** Every difference between the recorded answer and the replayed one. */
function differences(ex: Exchange, mine: Replayed, ids: IdMap): string[] {
  const out: string[] = [];
  const recorded = ex.response;
  if (mine.status !== recorded.status) out.push(`status ${recorded.status} recorded, ${mine.status} here`);
  const type = header(recorded, 'content-type');
  const myType = mine.headers.get('content-type') ?? undefined;
  if (type !== myType) out.push(`content-type ${type ?? '(none)'} recorded, ${myType ?? '(none)'} here`);
  for (const name of NOTABLE) {
    const want = header(recorded, name);
    const got = mine.headers.get(name) ?? undefined;
    if ((want === undefined) !== (got === undefined)) out.push(`${name} ${want ?? '(none)'} recorded, ${got ?? '(none)'} here`);
    else if (name === 'allow' && want !== got) out.push(`allow ${want} recorded, ${got} here`);
    else if (name === 'content-range' && got !== undefined && !/^bytes \d+-\d+\/\d+$/.test(got)) out.push(`content-range ${got} is not a range`);
  }
  if (ex.request.method === 'HEAD' && mine.text !== '') out.push('HEAD answered a body');
  if (ex.request.path.endsWith('/events') && recorded.status === 200) {
    const want = streamEnding(recorded.raw_text ?? '');
    const got = streamEnding(mine.text);
    for (const key of ['final', 'output', 'outputAfter'] as const) if (want[key] !== got[key]) out.push(`stream ${key} ${String(want[key])} recorded, ${String(got[key])} here`);
  } else if (recorded.body !== undefined) {
    let body: unknown;
    try {
      body = JSON.parse(mine.text);
    } catch {
      out.push(`body is not JSON: ${mine.text.slice(0, 80)}`);
    }
    if (body !== undefined) {
      const code = (isObject(recorded.body) && isObject(recorded.body.error) ? recorded.body.error.code : undefined) as string | undefined;
      const myCode = isObject(body) && isObject(body.error) ? body.error.code : undefined;
      if (code !== myCode) out.push(`code ${code ?? '(none)'} recorded, ${String(myCode ?? '(none)')} here`);
      const message = isObject(recorded.body) && isObject(recorded.body.error) ? recorded.body.error.message : undefined;
      const myMessage = isObject(body) && isObject(body.error) ? body.error.message : undefined;
      if (typeof message === 'string' && ids.rewrite(message) !== myMessage) out.push(`message ${JSON.stringify(message)} recorded, ${JSON.stringify(myMessage)} here`);
      shapeDiffs(recorded.body, body, 'body', out);
      const moments = { recorded: Date.parse(header(recorded, 'date') ?? ''), mine: Date.parse(mine.headers.get('date') ?? '') };
      valueDiffs(recorded.body, body, 'body', moments, out);
    }
  } else if (recorded.body_text !== undefined && type?.startsWith('text/plain') && mine.text !== recorded.body_text) {
    out.push(`text ${JSON.stringify(recorded.body_text)} recorded, ${JSON.stringify(mine.text.slice(0, 80))} here`);
  }
  return out.filter((diff) => !KEPT.some((kept) => kept.applies(ex, diff)));
}

describe.concurrent('the self-hosted dev-server against the recorded reference server (v2-proxy-edges)', () => {
  const ownServer = useServerPerTest({ deployment: 'self-hosted', jobsPort: 0, engineVersion: '0.3.64', stepMs: 80, keepaliveMs: 300, faults: true });

  it('answers every recorded exchange as the reference server did, but for the kept differences', async () => {
    const replay = new Replay(await ownServer());
    const found: string[] = [];
    let replayed = 0;
    for (const ex of RECORDING.exchanges) {
      if (ex.request.server !== undefined) continue; // the engine's own answers: see KEPT
      const mine = await replay.run(ex);
      replayed++;
      if (mine.status < 400 && ['POST', 'GET'].includes(ex.request.method) && mine.headers.get('content-type')?.startsWith('application/json')) {
        try {
          replay.ids.learn(ex.response.body, JSON.parse(mine.text));
        } catch {
          // not JSON: nothing to learn
        }
      }
      for (const diff of differences(ex, mine, replay.ids)) found.push(`${ex.case} (${ex.request.method} ${ex.request.path.slice(0, 60)}): ${diff}`);
    }
    expect(replayed).toBeGreaterThan(170);
    expect(found).toEqual([]);
  }, 180_000);

  it('runs the recordings\' workflows with ComfyUI\'s classes: invert (EmptyImage, ImageInvert) and sampler8 (checkpoint, CLIP, latent, KSampler, VAE)', async () => {
    const server = await ownServer();
    const sampler8 = JSON.parse(readFileSync(join(import.meta.dirname, 'reference', 'sampler8.json'), 'utf8')) as Json;
    for (const [name, workflow] of [['invert', INVERT], ['sampler8', sampler8]] as const) {
      const submitted = (await (await fetch(`${server.jobsUrl}/api/v2/jobs`, { method: 'POST', body: JSON.stringify({ workflow }) })).json()) as Json;
      expect([name, submitted.status]).toEqual([name, 'queued']);
      const done = await hurried(server, () => waitForJob(server, submitted.urls.self, ['succeeded', 'failed']));
      expect([name, done.status, done.outputs.length]).toEqual([name, 'succeeded', 1]);
    }
    // The sampler's steps come as progress on the stream, as on the engine.
    const job = (await (await fetch(`${server.jobsUrl}/api/v2/jobs`, { method: 'POST', body: JSON.stringify({ workflow: sampler8 }) })).json()) as Json;
    const { events } = await readEventStream(await fetch(job.urls.events));
    expect(events.some((e) => e.event === 'progress' && e.data.current_node === '5' && e.data.steps === 8)).toBe(true);
  }, 60_000);
});
