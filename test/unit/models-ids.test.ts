// Model id rules: what the catalog lists and what the CLI accepts come from the same validators.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isModelId, ModelIdError, modelPath, parseModelId, segmentProblem } from '../../src/protocol/model-ids.js';

const run = fc.stringMatching(/^[a-z0-9]{1,6}$/);
const segment = fc.tuple(run, fc.array(fc.tuple(fc.constantFrom('.', '_', '-'), run), { maxLength: 4 })).map(([first, rest]) => first + rest.map(([s, r]) => s + r).join(''));

describe('model ids', () => {
  it('accepts every provider/model built from the segment grammar', () => {
    fc.assert(
      fc.property(segment, segment, (provider, model) => {
        expect(parseModelId(`${provider}/${model}`)).toEqual({ provider, model, id: `${provider}/${model}` });
      }),
    );
  });

  it.each([
    ['acme', 'exactly provider/model'],
    ['acme/chat/v2', 'exactly provider/model'],
    ['Acme/chat', 'provider segment'],
    ['acme/Chat', 'model segment'],
    ['acme/chat--v2', 'model segment'],
    ['acme/.chat', 'model segment'],
    ['acme/chat.', 'model segment'],
    ['/chat', 'provider segment is empty'],
    ['acme/', 'model segment is empty'],
    ['acme/ch at', 'model segment'],
  ])('refuses %s naming the rule (%s)', (id, rule) => {
    expect(() => parseModelId(id)).toThrow(ModelIdError);
    expect(() => parseModelId(id)).toThrow(rule);
    expect(isModelId(id)).toBe(false);
  });

  it('enforces the segment lengths', () => {
    expect(segmentProblem('provider', 'a'.repeat(64))).toBeUndefined();
    expect(segmentProblem('provider', 'a'.repeat(65))).toMatch(/at most 64/);
    expect(segmentProblem('model', 'a'.repeat(128))).toBeUndefined();
    expect(segmentProblem('model', 'a'.repeat(129))).toMatch(/at most 128/);
  });

  it('builds the call path with encoded segments', () => {
    expect(modelPath({ provider: 'pixel.labs', model: 'flux_v1-2' })).toBe('/v1/models/pixel.labs/flux_v1-2');
  });
});
