// Properties of link resolution and id segments beyond test/unit/errors.test.ts: any link a server
// sends resolves to an http(s) URL or is refused as bad_link (never file:, data:, javascript:);
// a host-relative link, whatever follows its slash, stays on the answering origin; and an id
// always comes back from the request path exactly, as one segment (the old check there passed
// for ids the URL parser resolved away).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WesError } from '../../src/errors.js';
import { resolveLink, segment } from '../../src/http/links.js';
import { binaryString } from '../helpers/arbitraries.js';

const ORIGIN = 'http://origin.test:8080';
const FROM = `${ORIGIN}/deployment/a/api/v2/jobs/1`;

/** Link text as a hostile server might write it: schemes, slashes, dots, escapes, controls. */
const linkText = fc.oneof(
  binaryString({ maxLength: 60 }),
  fc
    .tuple(
      fc.constantFrom('', 'http:', 'https:', 'HTTP:', 'file:', 'data:', 'javascript:', 'ws:', 'ftp:', '\u0000http:', ' https:'),
      fc.constantFrom('', '/', '//', '///', '\\\\', '/\\', '\t//'),
      fc.string({ maxLength: 30 }),
    )
    .map(([scheme, slashes, rest]) => scheme + slashes + rest),
);

describe('resolveLink (properties)', () => {
  it('always yields an http(s) URL or refuses with bad_link', () => {
    fc.assert(
      fc.property(linkText, (link) => {
        let url: URL;
        try {
          url = resolveLink(link, FROM);
        } catch (err) {
          expect(err).toBeInstanceOf(WesError);
          expect((err as WesError).code).toBe('bad_link');
          return;
        }
        expect(['http:', 'https:']).toContain(url.protocol);
      }),
      { numRuns: 3000 },
    );
  });

  it('a link with one leading slash (and not two) stays on the answering origin', () => {
    // Pieces that URL parsing treats specially after a slash: '\\' (a slash too), tab and
    // newline (dropped), '@', ':' and a host name.
    const tricky = fc.array(fc.constantFrom('\\', '/', '\t', '\n', '\r', ' ', 'evil.test', ':', '@', '.', '..', '%2f', '%5c', '?', '#', 'x'), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(tricky, binaryString({ maxLength: 60 })), (rest) => {
        const link = `/${rest}`;
        fc.pre(!link.startsWith('//'));
        let url: URL;
        try {
          url = resolveLink(link, FROM);
        } catch {
          return; // refused is safe too
        }
        expect(url.origin).toBe(ORIGIN);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('segment (properties)', () => {
  it('every id is one path segment that decodes back to exactly that id', () => {
    fc.assert(
      fc.property(fc.oneof(binaryString({ maxLength: 40 }), fc.stringMatching(/^[.%2eE/\\?#]{0,6}$/)), (id) => {
        const base = 'http://h.test/api/v2/jobs/';
        let encoded: string;
        try {
          encoded = segment(id);
        } catch (err) {
          expect(['', '.', '..']).toContain(id);
          expect((err as WesError).exitCode).toBe(2);
          return;
        }
        const path = new URL(base + encoded + '/status').pathname;
        expect(path.startsWith('/api/v2/jobs/')).toBe(true);
        expect(path.endsWith('/status')).toBe(true);
        const inner = path.slice('/api/v2/jobs/'.length, -'/status'.length);
        expect(inner).not.toContain('/');
        expect(decodeURIComponent(inner)).toBe(id);
      }),
      { numRuns: 3000 },
    );
  });
});
