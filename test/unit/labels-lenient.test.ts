// Labels are read leniently, as the maker's clients read them (issue 35): a number or null value,
// a string where a map was expected, a list: the job still reads, unusable pairs dropped; wes's key
// label is found in either dialect and left out of what the user is shown.
import { describe, expect, it } from 'vitest';
import { keyOfLabels, labelsOf, userLabelText } from '../../src/clients/jobs/labels.js';
import { submitMetadata } from '../../src/clients/jobs/keyed-submit.js';

describe('reading labels', () => {
  it.each([
    { metadata: { team: 'vision', n: 5, gone: null, 'wes-key': 'k1' }, pairs: { team: 'vision', 'wes-key': 'k1' }, key: 'k1', shown: 'team=vision' },
    { metadata: 'team=vision wes-key:k2', pairs: {}, key: 'k2', shown: 'team=vision' },
    { metadata: ['a', 'b'], pairs: {}, key: undefined, shown: '' },
    { metadata: null, pairs: {}, key: undefined, shown: '' },
    { metadata: 42, pairs: {}, key: undefined, shown: '' },
    { metadata: 'a plain label', pairs: {}, key: undefined, shown: 'a plain label' },
  ])('$metadata', ({ metadata, pairs, key, shown }) => {
    const labels = labelsOf(metadata);
    expect(labels.pairs).toEqual(pairs);
    expect(keyOfLabels(labels)).toBe(key);
    expect(userLabelText(labels)).toBe(shown);
  });
});

describe('writing labels in each dialect', () => {
  it('a map on serverless, the string on the proxy, nothing on Comfy Cloud', () => {
    expect(submitMetadata('map', 'k', { team: 'v' })).toEqual({ team: 'v', 'wes-key': 'k' });
    expect(submitMetadata('string', 'k', { team: 'v', run: '7' })).toBe('team=v run=7 wes-key:k');
    expect(submitMetadata('string', 'k')).toBe('wes-key:k');
    expect(submitMetadata('none', 'k', { team: 'v' })).toBeUndefined();
  });
});
