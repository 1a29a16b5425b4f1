// What the dev-server holds for a request is let go when the request ends early or the server
// closes: an aborted upload's temp file, a pending slow model call and its timer.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { modelsState, setModelsDeadline } from '../../src/dev-server/models/index.js';
import { startFast, useDevServer } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { call } from './models-http.js';
import { incomingFiles, multipartHead, stillServing } from './raw-requests.js';

describe('dev-server releases what an ended request held', () => {
  const ctx = useDevServer({ faults: true });
  const auth = (): string => `Authorization: Bearer ${ctx.server.apiKey}`;

  it.each([
    ['v2', 'file', '/api/v2/assets'],
    ['v1', 'image', '/api/upload/image'],
  ])('an aborted %s upload closes and removes its temp file', async (_surface, field, path) => {
    const header = field === 'file' ? auth() : `X-API-Key: ${ctx.server.apiKey}`;
    const { hostname, port } = new URL(ctx.server.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(multipartHead(field, 'zz', header, path, 1_000_000));
    socket.write(Buffer.alloc(64 * 1024, 7));
    await until(async () => (await incomingFiles(ctx.server)).length > 0, 'the upload to start', 3000);
    socket.destroy();
    await until(async () => (await incomingFiles(ctx.server)).length === 0, 'the temp file to be removed', 3000);
    await stillServing(ctx.server);
  });

  it('close() ends a pending dev/slow call instead of leaving its timer running', async () => {
    const server = await startFast();
    setModelsDeadline(server.state, 50);
    const answer = await call(server.url, '/v1/models/dev/slow', { body: { prompt: 'p', duration_ms: 60_000, cost_cents: 1 } });
    expect(answer.status).toBe(504);
    const usage = modelsState(server.state).usage;
    expect([...usage.values()].reduce((n, u) => n + u.inFlight, 0)).toBe(1);
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await server.close();
    await until(async () => [...usage.values()].reduce((n, u) => n + u.inFlight, 0) === 0, 'the slow call to end', 3000);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThan(timersBefore);
  });
});
