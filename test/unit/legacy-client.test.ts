// Pure parts of the v1 client: prompt filtering and preview attribution, file references,
// the WebSocket URL (token only to the configured origin), outcomes and exit codes.
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { exitCodeForStatus, hintForException, statusOfOutcome } from '../../src/clients/legacy/outcome.js';
import { legacySocketUrl } from '../../src/clients/legacy/socket.js';
import { fileRefsOf, PromptTracker } from '../../src/clients/legacy/tracker.js';
import { parseOriginalRef } from '../../src/commands/legacy/original-ref.js';
import { describeInput } from '../../src/commands/legacy/object-info.js';
import { queueRow } from '../../src/command-kit/legacy/queue-row.js';

const msg = (type: string, data: Record<string, unknown>) => ({ type, data });

describe('PromptTracker', () => {
  it('keeps only its own prompt and follows node, step, cache and outputs', () => {
    const t = new PromptTracker('A');
    expect(t.accept(msg('executing', { node: '5', prompt_id: 'B' }))).toBe(false);
    expect(t.accept(msg('execution_start', { prompt_id: 'A' }))).toBe(true);
    t.accept(msg('execution_cached', { nodes: ['1', 2, '3'], prompt_id: 'A' }));
    t.accept(msg('executing', { node: '4', prompt_id: 'A' }));
    t.accept(msg('progress', { value: 3, max: 10, node: '4', prompt_id: 'A' }));
    expect([t.currentNode, t.step, t.cached]).toEqual(['4', { value: 3, max: 10 }, ['1', '3']]);
    t.accept(msg('executed', { node: '9', prompt_id: 'A', output: { images: [{ filename: 'a.png', subfolder: '', type: 'output' }], text: ['not a ref'] } }));
    t.accept(msg('executed', { node: '9', prompt_id: 'A', output: { images: [{ filename: 'a.png', subfolder: '', type: 'output' }] } }));
    expect(t.outputs).toEqual([{ node: '9', kind: 'images', filename: 'a.png', subfolder: '', type: 'output' }]);
    expect(t.outcome).toBeNull();
    t.accept(msg('execution_error', { prompt_id: 'A', exception_type: 'OOMError', exception_message: 'out', traceback: ['a\n', 'b\n'], node_id: '4', node_type: 'Sample' }));
    expect(t.outcome).toEqual({ kind: 'error', exceptionType: 'OOMError', exceptionMessage: 'out', nodeId: '4', nodeType: 'Sample', traceback: 'a\nb\n' });
  });

  it('claims an anonymous frame only when its prompt alone is executing', () => {
    const t = new PromptTracker('A');
    expect(t.claimAnonymous()).toMatchObject({ ours: false });
    t.accept(msg('executing', { node: '2', prompt_id: 'A' }));
    expect(t.claimAnonymous()).toEqual({ ours: true, node: '2' });
    t.accept(msg('execution_start', { prompt_id: 'B' }));
    expect(t.claimAnonymous()).toEqual({ ours: false, reason: expect.stringContaining('2 prompts') });
    t.accept(msg('execution_success', { prompt_id: 'B' }));
    expect(t.claimAnonymous()).toMatchObject({ ours: true });
    t.accept(msg('execution_start', { prompt_id: 'C' }));
    t.forgetOthers();
    expect(t.claimAnonymous()).toMatchObject({ ours: false });
    t.accept(msg('progress', { value: 1, max: 2, node: '2', prompt_id: 'A' }));
    expect(t.claimAnonymous()).toMatchObject({ ours: true });
    t.accept(msg('executing', { node: null, prompt_id: 'A' }));
    expect(t.claimAnonymous()).toMatchObject({ ours: false });
  });

  it('reads file references from any key, skipping malformed entries', () => {
    expect(fileRefsOf('1', { video: [{ filename: 'v.mp4' }, null, { filename: 3 }], gifs: 'x' })).toEqual([
      { node: '1', kind: 'video', filename: 'v.mp4', subfolder: '', type: 'output' },
    ]);
    expect(fileRefsOf('1', null)).toEqual([]);
  });
});

describe('legacySocketUrl', () => {
  it('puts the key in the query only for the configured origin, keeping a path prefix', () => {
    const http = new HttpClient({ baseUrl: 'https://gw.example/deployment/abc', routerUrl: 'https://gw.example', apiKey: 'KEY' });
    const url = legacySocketUrl(http, 'client-1');
    expect(url.toString()).toBe('wss://gw.example/deployment/abc/ws?clientId=client-1&token=KEY');
    const local = legacySocketUrl(new HttpClient({ baseUrl: 'http://127.0.0.1:8188', routerUrl: 'http://127.0.0.1:8188' }), 'c');
    expect(local.toString()).toBe('ws://127.0.0.1:8188/ws?clientId=c');
  });
});

describe('outcomes', () => {
  it('maps terminal statuses to exit codes and unknown names to in flight', () => {
    expect(['success', 'error', 'non_retryable_error', 'lost', 'cancelled'].map(exitCodeForStatus)).toEqual([0, 3, 3, 3, 10]);
    expect(statusOfOutcome({ kind: 'interrupted' })).toBe('cancelled');
    expect(statusOfOutcome({ kind: 'error', exceptionType: 'ValidationError', exceptionMessage: '', nodeId: null, nodeType: null, traceback: '' })).toBe('non_retryable_error');
    for (const type of ['ValidationError', 'ModelDownloadError', 'ImageDownloadError', 'OOMError', 'InsufficientFundsError', 'InactiveSubscriptionError']) {
      expect(hintForException(type)).toEqual(expect.any(String));
    }
    expect(hintForException('RuntimeError')).toBeUndefined();
  });
});

describe('command helpers', () => {
  it('parses --original as a name or a JSON file reference', () => {
    expect(parseOriginalRef('cat.png')).toEqual({ filename: 'cat.png', subfolder: '', type: 'input' });
    expect(parseOriginalRef('{"filename":"a.png","subfolder":"s","type":"temp"}')).toEqual({ filename: 'a.png', subfolder: 's', type: 'temp' });
    expect(() => parseOriginalRef('{"subfolder":""}')).toThrow(/filename/);
    expect(() => parseOriginalRef('{')).toThrow(/not valid JSON/);
  });

  it('describes object_info inputs of every shape', () => {
    expect(describeInput(['INT', { default: 20, min: 1, max: 150 }])).toEqual({ type: 'INT', default: '20', bounds: '1..150' });
    expect(describeInput([['a', 'b'], { default: 'a' }])).toEqual({ type: 'COMBO', default: '"a"', bounds: 'a | b' });
    expect(describeInput(['COMBO', { options: ['x'] }])).toEqual({ type: 'COMBO', default: '', bounds: 'x' });
    expect(describeInput('garbage')).toEqual({ type: '?', default: '', bounds: '' });
  });

  it('reads queue tuples defensively', () => {
    expect(queueRow('pending', [3, 'id', { '1': {}, '2': {} }, {}, ['2']])).toEqual(['pending', 3, 'id', 2, '2']);
    expect(queueRow('running', 'nonsense')).toEqual(['running', null, '?', null, '']);
  });
});
