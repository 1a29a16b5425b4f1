// The "did you mean" of a typo'd input name (issue 38, item 4).
import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/util/closest-name.js';

describe('closestName', () => {
  const sample = ['image', 'steps', 'seed', 'denoise', 'sampler_name'];
  it('finds the input a typo meant: a letter left out, two swapped, a case slip', () => {
    expect(closestName('sed', sample)).toBe('seed');
    expect(closestName('widht', ['width', 'height', 'color'])).toBe('width');
    expect(editDistance('widht', 'width')).toBe(1);
    expect(closestName('Seed', sample)).toBe('seed');
    expect(closestName('stesp', sample)).toBe('steps');
  });
  it('names none for a name far from all, a too-short one, or a tie', () => {
    expect(closestName('noise_level', sample)).toBeUndefined();
    expect(closestName('x', ['y', 'z'])).toBeUndefined();
    expect(closestName('cat', ['bat', 'hat'])).toBeUndefined();
  });
});
