// Properties of the event-stream reading that `jobs watch` uses (listenToEvents in
// src/clients/jobs/events.ts, with its own parser setup and UTF-8 decoding): however the bytes
// of a stream are cut into chunks (inside a multi-byte character, between CR and LF, inside a
// field name), the same events come out in the same order; and arbitrary bytes never make it
// throw or hang. The client is a JobsClient whose event stream is scripted chunk by chunk.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HttpClient, type HttpResponse } from '../../src/http/client.js';
import { JobsClient, type FetchedJob } from '../../src/clients/jobs/client.js';
import { listenToEvents } from '../../src/clients/jobs/events.js';
import type { Job } from '../../src/protocol/jobs.js';

const NOWHERE = 'http://127.0.0.1:9';

/** A JobsClient whose event stream delivers exactly these chunks. */
class ScriptedEvents extends JobsClient {
  constructor(private readonly chunks: Buffer[]) {
    super(new HttpClient({ baseUrl: NOWHERE, routerUrl: NOWHERE }));
  }

  override async events(): Promise<HttpResponse<Readable>> {
    return { status: 200, headers: { 'content-type': 'text/event-stream' }, url: new URL(`${NOWHERE}/e`), requestId: undefined, body: Readable.from(this.chunks) };
  }
}

const JOB: FetchedJob = {
  job: { id: 'j', status: 'running', urls: { self: '/j', events: '/j/events', cancel: '/j/cancel' }, outputs: [] } as unknown as Job,
  from: new URL(NOWHERE),
};

/** Runs the listener over `chunks`; resolves with the event names it reported. */
async function namesFrom(chunks: Buffer[]): Promise<string[]> {
  const names: string[] = [];
  const listener = listenToEvents(() => new ScriptedEvents(chunks), JOB, (name) => names.push(name), { debug: () => {}, say: () => {} });
  await listener.done;
  return names;
}

interface StreamEvent {
  name: string | null;
  data: unknown;
  id: number | null;
  comment: boolean;
}

const eventName = fc.constantFrom('status', 'progress', 'output', 'preview', 'log', 'error', 'x-custom');
const streamEvent = fc.record({
  name: fc.option(eventName, { nil: null }),
  data: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => ({ line: s }))),
  id: fc.option(fc.nat(), { nil: null }),
  comment: fc.boolean(),
});

/** Serialises events as a server would, with one kind of line ending throughout. */
function serialise(events: StreamEvent[], eol: string): Buffer {
  let text = '';
  for (const e of events) {
    if (e.comment) text += `: keepalive${eol}`;
    if (e.id !== null) text += `id: ${e.id}${eol}`;
    if (e.name !== null) text += `event: ${e.name}${eol}`;
    // A multi-line payload goes out as several data lines, which the parser joins again.
    for (const line of JSON.stringify(e.data, null, 1).split('\n')) text += `data: ${line}${eol}`;
    text += eol;
  }
  return Buffer.from(text, 'utf8');
}

/** Every event, by name (an unnamed one is a `message`). */
function expectedNames(events: StreamEvent[]): string[] {
  return events.map((e) => e.name ?? 'message');
}

/** Cuts `bytes` at the given (sorted, deduplicated) offsets. */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    if (p > at) chunks.push(bytes.subarray(at, p));
    at = Math.max(at, p);
  }
  return chunks;
}

describe('event stream reading (properties)', () => {
  it('yields the same events in the same order for any chunking and any line ending', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(streamEvent, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (events, eol, offsets) => {
          const bytes = serialise(events, eol);
          expect(await namesFrom(cut(bytes, offsets))).toEqual(expectedNames(events));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('one byte per chunk: every CR/LF pair and every multi-byte character split', async () => {
    const events: StreamEvent[] = [
      { name: 'status', data: { emoji: '😀 é 中' }, id: 1, comment: true },
      { name: null, data: { line: 'ж' }, id: null, comment: false },
      { name: 'output', data: ['a', 'b'], id: 2, comment: false },
    ];
    for (const eol of ['\n', '\r\n', '\r']) {
      const bytes = serialise(events, eol);
      expect(await namesFrom([...bytes].map((b) => Buffer.of(b)))).toEqual(['status', 'message', 'output']);
    }
  });

  it('arbitrary bytes never make it throw or hang', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), async (chunks) => {
        const names = await namesFrom(chunks.map((c) => Buffer.from(c)));
        expect(Array.isArray(names)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
