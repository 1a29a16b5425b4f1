import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exitCodeForApi, ExitCode } from '../../src/errors.js';
import { resolveLink, segment } from '../../src/http/links.js';
import { backoffDelay, parseRetryAfter, defaultResendPolicy } from '../../src/http/retry.js';

describe('exit codes', () => {
  it.each([
    [401, undefined, ExitCode.AUTH], [403, 'not_enabled', ExitCode.AUTH], [404, 'not_found', ExitCode.NOT_FOUND],
    [404, 'model_not_found', ExitCode.NOT_FOUND], [404, 'blob_not_found', ExitCode.NOT_FOUND], [422, 'invalid_workflow', ExitCode.REFUSED],
    [422, 'workflow_format_ui', ExitCode.REFUSED], [422, 'invalid_input', ExitCode.REFUSED], [422, 'deployment_stopped', ExitCode.REFUSED],
    [400, undefined, ExitCode.REFUSED], [409, 'hash_mismatch', ExitCode.REFUSED], [429, 'rate_limited', ExitCode.THROTTLED],
    [503, 'service_unavailable', ExitCode.THROTTLED], [504, 'deadline_exceeded', ExitCode.TIMEOUT], [402, 'insufficient_credits', ExitCode.CREDITS],
    [502, 'provider_error', ExitCode.FAILED], [400, 'content_policy_violation', ExitCode.FAILED], [500, 'upstream_error', ExitCode.ERROR],
    [500, 'internal_error', ExitCode.ERROR], [451, 'content_blocked', ExitCode.REFUSED],
  ])('HTTP %i %s exits %i', (status, code, exit) => {
    expect(exitCodeForApi(status, code)).toBe(exit);
  });
});

/**
 * A URL path as RFC 3986 allows it: segments (empty ones too, so `//`) of unreserved characters,
 * sub-delimiters, ':' and '@', and percent-encoded bytes. fast-check's own fc.webPath() gives the same
 * kind of path but takes 1.6 s of CPU to build its segment arbitrary, once per worker.
 */
const pchar = fc.oneof(
  fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@"),
  fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`),
);
const webPath = fc.array(fc.string({ unit: pchar, maxLength: 12 }), { maxLength: 6 }).map((segments) => segments.map((segment) => `/${segment}`).join(''));

describe('links', () => {
  it('resolves host-relative links against the response origin only', () => {
    expect(resolveLink('/deployment/d/api/v2/jobs/1', 'http://h.test/deployment/d/api/v2/jobs').toString()).toBe('http://h.test/deployment/d/api/v2/jobs/1');
    expect(resolveLink('https://cdn.test/a?sig=1', 'http://h.test/x').toString()).toBe('https://cdn.test/a?sig=1');
    expect(() => resolveLink('file:///etc/passwd', 'http://h.test/')).toThrow(/http/);
    expect(() => resolveLink('javascript:alert(1)', 'http://h.test/')).toThrow();
  });

  it('keeps any host-relative link on the response origin', () => {
    fc.assert(
      fc.property(webPath, (path) => {
        const p = '/' + path.replace(/^\/+/, '');
        expect(resolveLink(p, 'http://origin.test:8080/deployment/a/api/v2/jobs/1').origin).toBe('http://origin.test:8080');
      }),
    );
  });

  it('encodes ids so they cannot change the path', () => {
    fc.assert(
      fc.property(fc.string().filter((id) => !['', '.', '..'].includes(id)), (id) => {
        const url = new URL(`http://h.test/api/v2/jobs/${segment(id)}`);
        expect(url.pathname.startsWith('/api/v2/jobs/')).toBe(true);
        expect(url.pathname.slice('/api/v2/jobs/'.length)).not.toMatch(/\//);
      }),
    );
    expect(() => segment('..')).toThrow(/not an id/);
    expect(segment('a/b')).toBe('a%2Fb');
  });
});

describe('retry helpers', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(Date.now() + 3000).toUTCString())).toBeGreaterThan(1000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('backs off exponentially with jitter and a cap', () => {
    expect(backoffDelay(0, () => 0)).toBe(150);
    expect(backoffDelay(0, () => 1)).toBe(300);
    expect(backoffDelay(20, () => 1)).toBe(10_000);
  });

  it('replays reads and keyed router calls; a keyed job API POST is single-use; other POSTs never', () => {
    expect(defaultResendPolicy('GET', 'jobs', false)).toBe('replay');
    expect(defaultResendPolicy('DELETE', 'jobs', false)).toBe('replay');
    expect(defaultResendPolicy('POST', 'legacy', false)).toBe('never');
    expect(defaultResendPolicy('POST', 'jobs', false)).toBe('never');
    expect(defaultResendPolicy('POST', 'jobs', true)).toBe('single-use');
    expect(defaultResendPolicy('POST', 'models', true)).toBe('replay');
  });
});
