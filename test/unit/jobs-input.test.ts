// Pure logic behind `wes jobs`: --set parsing, workflow checks, JSON error positions, change keys,
// URL expiry and exit codes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyAssignments, parseSet, parseValue } from '../../src/features/jobs/inputs.js';
import { isUiFormat, parseWorkflow } from '../../src/workflows/workflow-file.js';
import { findJsonProblem, lineAndColumn } from '../../src/workflows/json-position.js';
import { exitCodeFor } from '../../src/command-kit/jobs/exit-code.js';
import { intervalMs, pollInterval } from '../../src/commands/poll-interval.js';
import { InvalidArgumentError } from 'commander';
import { outputLine, progressLine } from '../../src/commands/jobs/job-view.js';
import { changeKey } from '../../src/clients/jobs/follow-job.js';
import { urlExpired } from '../../src/clients/jobs/download.js';
import { UsageError } from '../../src/errors.js';
import type { Job } from '../../src/protocol/jobs.js';

const WORKFLOW = {
  '3': { class_type: 'Sample', inputs: { seed: 1, steps: 4 } },
  '10': { class_type: 'LoadImage', inputs: { image: 'x.png' } },
  'group.7': { class_type: 'SaveText', inputs: { text: 'hi' } },
};

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a usage error');
}

describe('--set NODE.INPUT=VALUE', () => {
  it('types the value as JSON when it parses, else keeps the string', () => {
    expect(parseValue('42')).toEqual({ kind: 'value', value: 42 });
    expect(parseValue('true')).toEqual({ kind: 'value', value: true });
    expect(parseValue('[1,2]')).toEqual({ kind: 'value', value: [1, 2] });
    expect(parseValue('{"a":null}')).toEqual({ kind: 'value', value: { a: null } });
    expect(parseValue('a cat')).toEqual({ kind: 'value', value: 'a cat' });
    expect(parseValue('')).toEqual({ kind: 'value', value: '' });
    expect(parseValue('"@literal"')).toEqual({ kind: 'value', value: '@literal' });
    expect(parseValue('@cat.png')).toEqual({ kind: 'file', path: 'cat.png' });
    expect(usage(() => parseValue('@')).message).toMatch(/file path/);
  });

  it('keeps everything after the first "=" as the value', () => {
    expect(parseSet('3.seed=a=b', WORKFLOW)).toEqual({ node: '3', input: 'seed', value: { kind: 'value', value: 'a=b' } });
  });

  it('takes the longest node id the workflow has, so node ids may hold dots', () => {
    expect(parseSet('group.7.text=bye', WORKFLOW)).toMatchObject({ node: 'group.7', input: 'text' });
    expect(parseSet('3.a.b=1', WORKFLOW)).toMatchObject({ node: '3', input: 'a.b' });
  });

  it('refuses an unknown node, naming the nodes there are', () => {
    const err = usage(() => parseSet('99.seed=1', WORKFLOW));
    expect(err.message).toContain('no node "99"');
    expect(err.hint).toContain('3, 10, group.7');
    expect(err.exitCode).toBe(2);
  });

  it('refuses a missing "=", a missing input and a bare node', () => {
    expect(usage(() => parseSet('3.seed', WORKFLOW)).message).toMatch(/missing "="/);
    expect(usage(() => parseSet('3.=1', WORKFLOW)).message).toMatch(/input name is empty/);
    expect(usage(() => parseSet('seed=1', WORKFLOW)).message).toMatch(/NODE.INPUT/);
  });

  it('applies values to a copy and puts what placing returns for files and asset ids', async () => {
    const assignments = [parseSet('3.seed=42', WORKFLOW), parseSet('10.image=@cat.png', WORKFLOW), parseSet('3.new=x', WORKFLOW), parseSet('3.mask=asset:a-9', WORKFLOW)];
    const placed: unknown[] = [];
    const out = await applyAssignments(WORKFLOW, assignments, async (input) => {
      placed.push(input);
      return { __type: 'core/ASSET', info: { id: input.kind === 'file' ? 'asset-1' : input.id } };
    });
    expect(out['3']).toEqual({ class_type: 'Sample', inputs: { seed: 42, steps: 4, new: 'x', mask: { __type: 'core/ASSET', info: { id: 'a-9' } } } });
    expect(out['10']).toEqual({ class_type: 'LoadImage', inputs: { image: { __type: 'core/ASSET', info: { id: 'asset-1' } } } });
    expect(placed).toEqual([{ kind: 'file', path: 'cat.png' }, { kind: 'asset', id: 'a-9' }]);
    expect(WORKFLOW['3'].inputs.seed).toBe(1);
  });

  it('reads asset:ID as an asset reference; a JSON string keeps "asset:..." as text', () => {
    expect(parseSet('10.image=asset:9f8a', WORKFLOW).value).toEqual({ kind: 'asset', id: '9f8a' });
    expect(parseSet('3.new="asset:9f8a"', WORKFLOW).value).toEqual({ kind: 'value', value: 'asset:9f8a' });
    expect(usage(() => parseSet('10.image=asset:', WORKFLOW)).message).toMatch(/asset id/);
  });
});

describe('workflow files', () => {
  it('recognises the UI format by its nodes and links arrays', () => {
    expect(isUiFormat({ nodes: [], links: [] })).toBe(true);
    expect(isUiFormat({ nodes: [], links: {} })).toBe(false);
    expect(isUiFormat(WORKFLOW)).toBe(false);
    expect(isUiFormat([])).toBe(false);
  });

  it('refuses UI format with the export hint, and non-objects', () => {
    const ui = usage(() => parseWorkflow(JSON.stringify({ last_node_id: 3, nodes: [{ id: 1 }], links: [] }), 'flow.json'));
    expect(ui.message).toContain('UI format');
    expect(ui.hint).toContain('API');
    expect(usage(() => parseWorkflow('[1,2]', 'flow.json')).message).toContain('API-format');
    expect(usage(() => parseWorkflow('"x"', 'flow.json')).message).toContain('API-format');
  });

  it('names the line and column of a syntax error', () => {
    const text = '{\n  "1": {\n    "class_type": "X",\n    "inputs": {,}\n  }\n}';
    expect(usage(() => parseWorkflow(text, 'flow.json')).message).toMatch(/^flow\.json:4:16: not valid JSON: expected a double-quoted property name/);
    expect(usage(() => parseWorkflow('{"a": 1,}', 'in')).message).toMatch(/^in:1:9:/);
    expect(usage(() => parseWorkflow('', 'in')).message).toMatch(/^in:1:1: not valid JSON: expected a value, found end of input/);
  });

  it('accepts a byte-order mark', () => {
    expect(parseWorkflow('\ufeff{"1": {}}', 'in')).toEqual({ '1': {} });
  });
});

describe('JSON error positions', () => {
  it('finds nothing wrong in valid JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => findJsonProblem(JSON.stringify(v, null, 2)) === undefined));
  });

  it('stops where JSON.parse stops, on damaged JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom('}', ']', ',', ':', 'x', '"', '\n'), (v, at, junk) => {
        const good = JSON.stringify(v);
        const pos = at % (good.length + 1);
        const bad = good.slice(0, pos) + junk + good.slice(pos);
        let parses = true;
        try {
          JSON.parse(bad);
        } catch {
          parses = false;
        }
        const problem = findJsonProblem(bad);
        return parses ? problem === undefined : problem !== undefined && problem.offset <= bad.length;
      }),
    );
  });

  it('counts columns in characters and lines from 1', () => {
    expect(lineAndColumn('ab\ncdé\nx', 7)).toEqual({ line: 3, column: 1 });
    expect(lineAndColumn('ab\ncdé', 6)).toEqual({ line: 2, column: 4 });
    expect(findJsonProblem('{"é": tru}')).toMatchObject({ line: 1, column: 7 });
  });
});

function job(fields: Partial<Job> = {}): Job {
  return {
    id: '11111111-2222-3333-4444-555555555555',
    status: 'running',
    created_at: '2026-01-01T00:00:00Z',
    started_at: '2026-01-01T00:00:01Z',
    completed_at: null,
    expires_at: '2026-01-02T00:00:00Z',
    queue_position: null,
    progress: { value: 0.456, nodes_done: 1, nodes_total: 3, current_node: '2', current_node_class: 'Sample', step: 9, steps: 20, message: 'sampling' },
    outputs: [],
    error: null,
    urls: { self: '/api/v2/jobs/1', events: '/api/v2/jobs/1/events', cancel: '/api/v2/jobs/1/cancel' },
    ...fields,
  };
}

describe('watch helpers', () => {
  const output = { node_id: '3', name: 'a.png', type: 'image', content_type: 'image/png', size_bytes: 2048, id: 'o1', hash: null, url: 'http://s/1?sig=a', url_expires_at: '2026-01-01T00:10:00Z' };

  it('ignores re-signed URLs when deciding whether a job changed', () => {
    const a = job({ outputs: [output] });
    const b = job({ outputs: [{ ...output, url: 'http://s/1?sig=b', url_expires_at: '2026-01-01T00:20:00Z' }] });
    expect(changeKey(a)).toBe(changeKey(b));
    expect(changeKey(a)).not.toBe(changeKey(job({ outputs: [{ ...output, hash: 'blake3:00' }] })));
    expect(changeKey(a)).not.toBe(changeKey(job({ outputs: [output], status: 'succeeded' })));
  });

  it('shows percent, nodes, class, step and message; outputs with type, size and node', () => {
    expect(progressLine(job())).toBe('11111111 running 46% · nodes 1/3 · Sample (node 2) · step 9/20 · sampling');
    expect(progressLine(job({ status: 'queued', queue_position: 2, progress: null }))).toBe('11111111 queued · queue position 2');
    expect(progressLine(job({ progress: { value: 0.5, nodes_done: 1, nodes_total: 2, message: 'x\u001b[2Jy' } }))).toBe('11111111 running 50% · nodes 1/2 · xy');
    // The reference server's polled running job: no progress known, not "0 of 0 nodes".
    expect(progressLine(job({ progress: { value: 0, nodes_done: 0, nodes_total: 0 } }))).toBe('11111111 running');
    expect(outputLine(output)).toBe('+ a.png (image, 2.0 KiB, node 3)');
  });

  it('maps outcomes to exit codes', () => {
    expect(exitCodeFor('succeeded')).toBe(0);
    expect(exitCodeFor('failed')).toBe(3);
    expect(exitCodeFor('expired')).toBe(3);
    expect(exitCodeFor('canceled')).toBe(10);
    expect(exitCodeFor('canceled', 0)).toBe(0);
  });

  it('reads --interval in seconds within bounds', () => {
    expect(intervalMs(undefined)).toBe(1000);
    expect(intervalMs(pollInterval('0.25'))).toBe(250);
    expect(() => pollInterval('0')).toThrow(InvalidArgumentError);
    expect(() => pollInterval('soon')).toThrow(InvalidArgumentError);
  });

  it('treats a URL as expired shortly before its deadline', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(urlExpired({ url_expires_at: '2026-01-01T00:00:01Z' }, now)).toBe(true);
    expect(urlExpired({ url_expires_at: '2026-01-01T00:01:00Z' }, now)).toBe(false);
    expect(urlExpired({ url_expires_at: 'garbage' }, now)).toBe(false);
  });
});
