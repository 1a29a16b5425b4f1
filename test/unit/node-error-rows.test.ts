// nodeErrorRows (src/render/error.ts) reads every shape of `node_errors` the wire carries: the
// engine's objects, the published contract's lists of {field, reason}, and what a server might
// send instead (a bare message, an empty list, an object with no errors), one row per problem.
import { describe, expect, it } from 'vitest';
import { nodeErrorRows } from '../../src/render/error.js';

describe('nodeErrorRows', () => {
  it('engine objects and {field, reason} lists side by side, in the same columns', () => {
    expect(nodeErrorRows({
      '3': { class_type: 'KSampler', errors: [{ type: 'required_input_missing', message: 'Required input is missing', details: 'model' }] },
      '12': [{ field: 'model', reason: 'missing_input' }],
    })).toEqual([
      ['3', 'KSampler', 'required_input_missing', 'Required input is missing', 'model'],
      ['12', '', 'missing_input', '', 'model'],
    ]);
  });

  it('odd entries still name their node; anything but an object of entries gives no row', () => {
    expect(nodeErrorRows({ a: 'plain message', b: [], c: { class_type: 'Save', errors: [] }, d: [7, null], e: null })).toEqual([
      ['a', '', '', 'plain message', ''],
      ['b', '', '', '', ''],
      ['c', 'Save', '', '', ''],
      ['d', '', '', '7', ''],
      ['d', '', '', '', ''],
      ['e', '', '', '', ''],
    ]);
    for (const value of [null, undefined, 'x', [{ field: 'f', reason: 'r' }], 3]) expect(nodeErrorRows(value)).toEqual([]);
  });

  it('cuts a long cell', () => {
    const [row] = nodeErrorRows({ '1': [{ field: 'f', reason: 'r'.repeat(5000) }] });
    expect(row![2]!.length).toBeLessThan(300);
  });
});
