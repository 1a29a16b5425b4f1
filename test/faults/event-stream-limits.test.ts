// The job event stream is only a wake-up (GET is the truth), so a stream that misbehaves is given
// up and the watch goes on by polling: a line that never ends is not buffered past 1 MiB (the
// stream is closed, with one notice), and a stream that connects and then sends nothing, not even
// a heartbeat, is abandoned after --read-timeout. Against a purpose-built job service whose job
// only ends once the client has let go of its stream, so a client that held on would not finish.
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { FAKE_JOB_ID, startFakeService, type FakeService } from '../security/fake-service.js';
import { wesAt } from './kit.js';

const closers: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(closers.map((close) => close())));

const MIB = 1 << 20;
const SELF = `/api/v2/jobs/${FAKE_JOB_ID}`;

interface StreamLog {
  openedAt?: number;
  closedAt?: number;
  sent: number;
  /** GETs of the job while the stream was open. */
  pollsWhileOpen: number;
  /** The job was answered as over because `giveUpMs` passed, not because the client let go of the stream. */
  gaveUp?: boolean;
}

/** A job that stays running until its event stream is let go (or `giveUpMs`, so a failing client does not hang the test). */
async function serviceWithStream(stream: (res: ServerResponse, log: StreamLog) => void | Promise<void>, giveUpMs = 15_000): Promise<{ fake: FakeService; log: StreamLog }> {
  const log: StreamLog = { sent: 0, pollsWhileOpen: 0 };
  const started = Date.now();
  const fake = await startFakeService({
    route: async (req, res) => {
      const path = req.url!.split('?')[0];
      if (path === `${SELF}/events`) {
        // The first stream's times: one the client lets go of may be opened again (100 ms later) if
        // the poll that hears the job ended comes back later than that on a slow machine.
        if (log.openedAt === undefined) {
          log.openedAt = Date.now();
          res.on('close', () => (log.closedAt ??= Date.now()));
        }
        await stream(res, log);
        return true;
      }
      if (path !== SELF) return false;
      if (log.openedAt !== undefined && log.closedAt === undefined) log.pollsWhileOpen++;
      if (log.closedAt === undefined && Date.now() - started > giveUpMs) log.gaveUp = true;
      const over = log.closedAt !== undefined || log.gaveUp === true;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...fake.job(), status: over ? 'succeeded' : 'running', completed_at: over ? '2026-01-01T00:00:02Z' : null }));
      return true;
    },
  });
  closers.push(fake.close);
  return { fake, log };
}

describe('a job event stream that misbehaves', () => {
  it('a line that never ends: read no further than about 1 MiB, one notice, and the watch ends by polling', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const { fake, log } = await serviceWithStream(async (res, log) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ');
      // Bounded: 256 MiB at most, and only while the client reads.
      while (!res.destroyed && log.closedAt === undefined && log.sent < 256 * MIB) {
        log.sent += chunk.length;
        // Whichever comes first; the other listener goes too (a 'close' left per wait piled up past Node's warning).
        if (!res.write(chunk)) await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done).off('close', done);
            resolve();
          };
          res.once('drain', done).once('close', done);
        });
      }
      res.end();
    });
    const res = await wesAt(fake.url, ['jobs', 'watch', FAKE_JOB_ID, '--interval', '0.1']);
    expect(res.code, res.stderr).toBe(0);
    expect(log.closedAt, 'the client let go of the stream').toBeDefined();
    // 1 MiB of characters, plus what the socket buffers held when the client hung up.
    expect(log.sent).toBeLessThan(16 * MIB);
    expect(res.stderr.match(/the event stream sent an event longer than 1 MiB without ending it; following the job by polling only/g)).toHaveLength(1);
    expect(res.stderr).toContain(`job ${FAKE_JOB_ID} succeeded`);
  });

  for (const [what, stream] of [
    ['headers and then nothing', (res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders()],
    ['no headers at all', () => undefined],
  ] as const) {
    it(`a stream that connects and stalls (${what}) is abandoned after --read-timeout while polling goes on`, async () => {
      const { fake, log } = await serviceWithStream(stream);
      const res = await wesAt(fake.url, ['jobs', 'watch', FAKE_JOB_ID, '--interval', '0.1', '--read-timeout', '0.5']);
      expect(res.code, res.stderr).toBe(0);
      expect(log.closedAt, 'the client let go of the stream').toBeDefined();
      expect(log.gaveUp, 'the job ended because the client let go of the stream, not because the fake gave up').toBeUndefined();
      expect(log.closedAt! - log.openedAt!, 'held for the read timeout').toBeGreaterThanOrEqual(400);
      expect(log.pollsWhileOpen, 'polls went on while the stream hung').toBeGreaterThanOrEqual(1);
      // Let go of once; opened again at most once (the job's end is read at the next poll).
      expect(fake.requests.filter((r) => r.url === `${SELF}/events`).length).toBeLessThanOrEqual(2);
      expect(res.stderr).toContain(`job ${FAKE_JOB_ID} succeeded`);
    });
  }
});
