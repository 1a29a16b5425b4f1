// PromptTracker: node and step from `progress_state` (0.3.64), and which prompt an anonymous
// (type 1) preview belongs to: on an engine, which runs one prompt at a time, the prompt a message
// last named, whatever an earlier prompt sent without a client id said (its end is told to nobody).
import { describe, expect, it } from 'vitest';
import { PromptTracker } from '../../src/clients/legacy/tracker.js';

const state = (promptId: string, nodes: Record<string, { value: number; max: number; state: string }>) => ({
  type: 'progress_state',
  data: { prompt_id: promptId, nodes: Object.fromEntries(Object.entries(nodes).map(([id, n]) => [id, { ...n, node_id: id, display_node_id: id, real_node_id: id, parent_node_id: null, prompt_id: promptId }])) },
});

describe('PromptTracker', () => {
  it('reads the running node and its step from progress_state; a node without steps shows none', () => {
    const tracker = new PromptTracker('P');
    tracker.accept(state('P', { '1': { value: 1, max: 1, state: 'finished' }, '4': { value: 0, max: 1, state: 'running' } }));
    expect([tracker.currentNode, tracker.step]).toEqual(['4', null]);
    tracker.accept(state('P', { '4': { value: 1, max: 1, state: 'finished' }, '5': { value: 3, max: 8, state: 'running' } }));
    expect([tracker.currentNode, tracker.step]).toEqual(['5', { value: 3, max: 8 }]);
    tracker.accept(state('Q', { '9': { value: 7, max: 8, state: 'running' } }));
    expect(tracker.currentNode).toBe('5'); // another prompt's state changes nothing of ours
  });

  it('on an engine, claims a type-1 preview for ours once ours runs, though an earlier client-less prompt never said it ended', () => {
    const engine = new PromptTracker('P', { oneAtATime: true });
    const cloud = new PromptTracker('P');
    for (const tracker of [engine, cloud]) {
      tracker.accept({ type: 'progress', data: { prompt_id: 'EARLIER', node: null, value: 3, max: 8 } });
      tracker.accept({ type: 'execution_start', data: { prompt_id: 'P' } });
      tracker.accept({ type: 'executing', data: { prompt_id: 'P', node: '5' } });
    }
    expect(engine.claimAnonymous()).toEqual({ ours: true, node: '5' });
    expect(cloud.claimAnonymous()).toMatchObject({ ours: false }); // the cloud runs several at once: no guess
    engine.accept({ type: 'execution_success', data: { prompt_id: 'P' } });
    expect(engine.claimAnonymous()).toMatchObject({ ours: false });
  });
});
