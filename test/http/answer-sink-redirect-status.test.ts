// HttpClient.into hands back every answer below 400 as the answer (as buffer() does): a 3xx one
// (a proxy's redirect to https, which undici does not follow) goes to the sink like a 2xx one, so
// `models run -o FILE` writes what it says it wrote, as it did when the answer was held in memory.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import type { AnswerSink } from '../../src/http/answer-sink.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(() => Promise.all(opened.splice(0).map((thing) => thing.close())));

function memorySink(): { sink: AnswerSink<Buffer>; opens: () => number } {
  let opens = 0;
  const sink: AnswerSink<Buffer> = {
    async open() {
      opens++;
      const kept: Buffer[] = [];
      return {
        take: (chunk) => void kept.push(Buffer.from(chunk)),
        close: async () => Buffer.concat(kept),
        drop: async () => undefined,
      };
    },
  };
  return { sink, opens: () => opens };
}

describe('an answer below 400 that is not 2xx, sent to a sink', () => {
  it('goes to the sink: the body handed back is what the sink made, as for a 2xx answer', async () => {
    const page = '<html>moved to https</html>';
    const s: TestServer = await startTestServer((_req, res) => res.writeHead(308, { location: 'https://example.invalid/v1/models/dev/echo', 'content-length': String(page.length) }).end(page));
    opened.push(s);
    const c = new HttpClient({ baseUrl: s.url, routerUrl: s.url, routerToken: 'router-token-0001', retries: 0 });
    opened.push(c);
    const { sink, opens } = memorySink();
    const res = await c.into({ family: 'models', method: 'POST', url: '/v1/models/dev/echo', body: '{}', largeAnswer: true }, sink);
    expect(res.status).toBe(308);
    expect(opens()).toBe(1);
    expect(Buffer.isBuffer(res.body) && res.body.toString()).toBe(page);
  });
});
