// The v1 wire types against the published cloud document's shapes and ComfyUI 0.3.64's recorded
// answers (test/fixtures/protocol/legacy.json, `published` and `observed_0_3_64`): the job list and
// detail, the status route's fields and both status vocabularies, the cloud's queue tuple, the
// delete answer and error body, and what 0.3.64 adds (refusals as objects, feature flags,
// progress_state). Type-checked by assignment, then compared key by key.
import { describe, expect, it } from 'vitest';
import legacy from '../fixtures/protocol/legacy.json' with { type: 'json' };
import {
  isV1Success,
  isV1Terminal,
  V1_SUCCESS_STATUSES,
  type V1CloudError,
  type V1CloudQueueEntry,
  type V1FeatureFlagsReply,
  type V1Features,
  type V1JobDetail,
  type V1JobStatus,
  type V1JobsList,
  type V1PromptResponse,
  type V1QueueDeleteResponse,
  type V1WsMessage,
} from '../../src/protocol/legacy.js';
import { entryOutputs } from '../../src/clients/legacy/queue-state.js';

const sorted = (value: object) => Object.keys(value).sort();
const { published, observed_0_3_64: newer } = legacy;

describe('the published cloud v1 document', () => {
  it('the status route: its fields, and every status of both vocabularies is terminal or in flight as published', () => {
    const status: V1JobStatus = published.job_status;
    expect(sorted(status)).toEqual(['assigned_inference', 'created_at', 'error_message', 'id', 'last_state_update', 'status', 'updated_at']);
    const terminal = ['completed', 'error', 'failed', 'cancelled'];
    for (const s of [...published.status_route_statuses, ...published.job_list_statuses]) expect([s, isV1Terminal(s)]).toEqual([s, terminal.includes(s)]);
    expect([...V1_SUCCESS_STATUSES].sort()).toEqual([...legacy.success_statuses].sort());
    expect(legacy.terminal_statuses.filter(isV1Success).sort()).toEqual(['completed', 'success']);
  });

  it('the job list and the job detail', () => {
    const list: V1JobsList = published.jobs_list;
    expect(sorted(list)).toEqual(['jobs', 'pagination']);
    expect(sorted(list.pagination)).toEqual(['has_more', 'limit', 'offset', 'total']);
    expect(sorted(list.jobs[0]!.execution_error!)).toEqual(['current_inputs', 'current_outputs', 'exception_message', 'exception_type', 'node_id', 'node_type', 'traceback']);
    const detail: V1JobDetail = published.job_detail;
    expect(sorted(detail)).toEqual(['create_time', 'id', 'outputs', 'outputs_count', 'status', 'update_time', 'workflow']);
  });

  it('the queue tuple keeps the id second and the output nodes fourth; the delete answer and the error body', () => {
    const entry = published.queue.queue_running[0] as V1CloudQueueEntry;
    expect(entryOutputs(entry)).toEqual(['3']);
    expect(entryOutputs(legacy.observed.queue.queue_running[0] as unknown[])).toEqual(['3']); // the engine's: fifth
    const deleted: V1QueueDeleteResponse = published.queue_delete_response;
    expect(sorted(deleted)).toEqual(['cleared', 'deleted']);
    const error: V1CloudError = published.error;
    expect(sorted(error)).toEqual(['code', 'message']);
  });
});

describe('what ComfyUI 0.3.64 sends that 0.3.18 did not', () => {
  it('refusals with node_errors a dict and error an object', () => {
    const noPrompt: V1PromptResponse = newer.prompt_refused_no_prompt;
    const unknown: V1PromptResponse = newer.prompt_refused_unknown_class;
    expect([noPrompt.node_errors, unknown.node_errors]).toEqual([{}, {}]);
    expect(sorted(noPrompt.error as object)).toEqual(['details', 'extra_info', 'message', 'type']);
    expect(legacy.observed.prompt_refused_no_prompt.error).toBe('no prompt'); // 0.3.18: a string
  });

  it('the features route, the feature_flags reply, and progress_state with every node\'s state', () => {
    const features: V1Features = newer.features;
    const reply = newer.feature_flags_reply as V1FeatureFlagsReply;
    expect(reply.data).toEqual(features);
    const progress = newer.progress_state as Extract<V1WsMessage, { type: 'progress_state' }>;
    const node = Object.values(progress.data.nodes)[0]!;
    expect(sorted(node)).toEqual(['display_node_id', 'max', 'node_id', 'parent_node_id', 'prompt_id', 'real_node_id', 'state', 'value']);
    expect(newer.system_stats_system_keys).toEqual(expect.arrayContaining(['comfyui_version', 'required_frontend_version']));
  });
});
