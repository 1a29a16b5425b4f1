// Which router failures `models run` retries, collects or gives up on, and which URLs of an
// output `--download` saves.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, WesError, ExitCode } from '../../src/errors.js';
import { decide } from '../../src/clients/models/run.js';
import { outputUrls } from '../../src/clients/models/output-urls.js';

function modelsError(status: number, code: string, retryAfterSeconds?: number): ApiError {
  return new ApiError('x', { status, code, origin: 'models', retryAfterSeconds });
}

describe('decide', () => {
  it('collects a 504 deadline_exceeded that carries Retry-After', () => {
    expect(decide(modelsError(504, 'deadline_exceeded', 2))).toEqual({ kind: 'collect', reason: 'deadline', delayMs: 2000 });
  });

  it('collects a 409 concurrency_limit_exceeded (an earlier call with this key is still running) at its Retry-After, else after a second', () => {
    expect(decide(modelsError(409, 'concurrency_limit_exceeded', 3))).toEqual({ kind: 'collect', reason: 'in_flight', delayMs: 3000 });
    expect(decide(modelsError(409, 'concurrency_limit_exceeded'))).toEqual({ kind: 'collect', reason: 'in_flight', delayMs: 1000 });
  });

  it('never sends again a 409 invalid_input (the key belongs to another request) nor a terminal queue bucket', () => {
    expect(decide(modelsError(409, 'invalid_input'))).toEqual({ kind: 'fail' });
    expect(decide(modelsError(409, 'cancelled'))).toEqual({ kind: 'fail' });
    expect(decide(modelsError(504, 'queue_timeout'))).toEqual({ kind: 'fail' });
    expect(decide(modelsError(404, 'request_not_found'))).toEqual({ kind: 'fail' });
  });

  it.each([
    [504, 'deadline_exceeded', undefined],
    [504, 'provider_timeout', undefined],
    [429, 'concurrency_limit_exceeded', undefined],
    [429, 'rate_limited', 3],
    [503, 'service_unavailable', 1],
    [429, 'queue_backlog_full', 2],
    [500, 'internal_error', undefined],
  ])('retries %i %s', (status, code, after) => {
    expect(decide(modelsError(status, code, after))).toEqual({ kind: 'retry', delayMs: after === undefined ? undefined : after * 1000 });
  });

  it.each([
    [401, 'unauthorized'], [403, 'forbidden'], [403, 'not_enabled'], [404, 'model_not_found'], [422, 'invalid_input'],
    [400, 'content_policy_violation'], [502, 'provider_error'], [402, 'insufficient_credits'], [400, 'internal_error'],
  ])('never retries %i %s', (status, code) => {
    expect(decide(modelsError(status, code))).toEqual({ kind: 'fail' });
  });

  it('retries network failures (the key makes the POST safe) but not other local errors', () => {
    expect(decide(new NetworkError('reset'))).toEqual({ kind: 'retry' });
    expect(decide(new WesError('bad', { exitCode: ExitCode.ERROR, code: 'bad_response' }))).toEqual({ kind: 'fail' });
    expect(decide(new Error('boom'))).toEqual({ kind: 'fail' });
  });
});

describe('outputUrls', () => {
  it('finds every http(s) URL in any string, once', () => {
    const urls = outputUrls({
      images: [{ url: 'https://cdn.test/a.png?sig=1' }, { url: 'https://cdn.test/a.png?sig=1' }],
      note: 'see http://x.test/b.txt and ftp://no.test/c',
      nested: { list: ['plain', 'HTTPS://UP.test/Z'] },
      n: 1,
    });
    expect(urls.map((u) => u.href)).toEqual(['https://cdn.test/a.png?sig=1', 'http://x.test/b.txt', 'https://up.test/Z']);
  });
});
