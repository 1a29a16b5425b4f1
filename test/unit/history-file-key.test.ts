// The job history's file is named by a SHA-256 of the profile and base URL, computed with
// @noble/hashes instead of node:crypto (which every job command would otherwise load): the names
// must stay the ones node:crypto gave, or an upgraded wes would not find the history it wrote.
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JobHistory } from '../../src/config/history.js';

const nodeKey = (profile: string, baseUrl: string) => createHash('sha256').update(`${profile}\n${baseUrl}`).digest('hex').slice(0, 16);

describe('the job history file key', () => {
  it('is the one node:crypto gives, for usual and unusual profiles and URLs', () => {
    const cases: Array<[string, string]> = [
      ['default', 'http://127.0.0.1:8188'],
      ['ci', 'https://api.example.com/'],
      ['prod-eu', 'https://xn--bcher-kva.example/ü/路径?q=1'],
      ['', ''],
      ['x'.repeat(200), `https://example.com/${'a'.repeat(300)}`],
    ];
    for (const [profile, baseUrl] of cases) {
      expect(basename(new JobHistory('/state', profile, baseUrl).path), `${profile} ${baseUrl}`).toBe(`jobs-${nodeKey(profile, baseUrl)}.ndjson`);
    }
  });

  it('is the one node:crypto gives for any strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), (profile, baseUrl) => {
        expect(basename(new JobHistory('/state', profile, baseUrl).path)).toBe(`jobs-${nodeKey(profile, baseUrl)}.ndjson`);
      }),
      { numRuns: 300 },
    );
  });
});
