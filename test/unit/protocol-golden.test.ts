// Pins every definition of src/protocol (what the client and the dev-server must agree on) to
// golden fixtures copied from the service interface and from observations of a real engine. The
// fixtures are typed against the protocol types (tsc checks them), and each `Record<keyof T, true>`
// lists the type's fields, so a field added, dropped or renamed on either side fails here.
import { describe, expect, it } from 'vitest';
import jobs from '../fixtures/protocol/jobs.json' with { type: 'json' };
import errors from '../fixtures/protocol/errors.json' with { type: 'json' };
import router from '../fixtures/protocol/models.json' with { type: 'json' };
import ids from '../fixtures/protocol/model-ids.json' with { type: 'json' };
import legacy from '../fixtures/protocol/legacy.json' with { type: 'json' };
import frames from '../fixtures/protocol/legacy-frames.json' with { type: 'json' };
import {
  ASSET_EXPIRES_IN_MAX,
  ASSET_EXPIRES_IN_MIN,
  ASSET_REQUIRED_FIELDS,
  IDEMPOTENCY_KEY_TTL_MS,
  JOB_EVENT_NAMES,
  JOB_LIST_LIMIT_DEFAULT,
  JOB_LIST_LIMIT_MAX,
  METADATA_MAX_BYTES,
  assetReference,
  claimsAssetReference,
  isAssetReference,
  isTerminal,
  TERMINAL_STATUSES,
  type AssetFromHashRequest,
  type AssetRecord,
  type AssetReference,
  type Job,
  type JobError,
  type JobList,
  type JobLogs,
  type JobNodeFieldError,
  type JobUrls,
  type JobWorkflowResponse,
  type LogEvent,
  type Output,
  type JobProgress,
  type PreviewEvent,
  type StatusEvent,
  type SubmitRequest,
} from '../../src/protocol/jobs.js';
import { SAFE_ID } from '../../src/clients/shared/response-check.js';
import { PUBLISHED_ROUTER_ERROR_TYPES, ROUTER_ERROR_TYPES, ROUTER_QUEUE_ERROR_TYPES, type ErrorEnvelope, type PublishedRouterErrorResponse, type RouterErrorResponse, type RouterValidationErrorDetail, type RouterValidationErrorResponse } from '../../src/protocol/errors.js';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, PUBLISHED_RUN_ACCEPT, QUEUE_STATUSES, ROUTER_HEADERS, type RouterModelDetail, type RouterModelListResponse, type RouterQueueCancelResponse, type RouterQueueCancelStatus, type RouterQueueStatusResponse, type RouterQueueSubmitResponse } from '../../src/protocol/models.js';
import { CURSOR_MAX, CURSOR_PATTERN, isModelId, MODEL_ID_MAX, MODEL_MAX, PROVIDER_MAX, QUEUE_REQUEST_ID, modelPath, modelsPath, parseModelId, requestIdProblem, requestPath, requestsPath, segmentProblem } from '../../src/protocol/model-ids.js';
import { extraDataField, makerHeader, MAKER_HEADER_ROLES, NAME_MODES, PARTNER_KEY_FIELD, PARTNER_TOKEN_FIELD, readMakerHeader } from '../../src/protocol/maker-names.js';
import { isV1Terminal, V1_TERMINAL_STATUSES, type V1FileRef, type V1PromptResponse, type V1Queue, type V1UploadResult, type V1WsMessage } from '../../src/protocol/legacy.js';
import {
  decodeFrame,
  encodeFrame,
  FRAME_PREVIEW_IMAGE,
  FRAME_PREVIEW_IMAGE_WITH_METADATA,
  FRAME_TEXT,
  IMAGE_TYPE_JPEG,
  IMAGE_TYPE_PNG,
  type BinaryFrame,
  type PreviewMetadata,
} from '../../src/protocol/legacy-frames.js';

const sorted = (o: object) => Object.keys(o).sort();

describe('job API v2 resources', () => {
  const job: Job = jobs.job;
  const fields: Record<keyof Job, true> = {
    id: true, status: true, created_at: true, started_at: true, completed_at: true, expires_at: true, queue_position: true,
    progress: true, outputs: true, error: true, metrics: true, urls: true, deployment_id: true, release_id: true, logs: true, metadata: true,
  };
  const progressFields: Record<keyof JobProgress, true> = {
    value: true, nodes_done: true, nodes_total: true, current_node: true, current_node_class: true, step: true, steps: true, message: true,
  };
  const outputFields: Record<keyof Output, true> = {
    node_id: true, name: true, type: true, content_type: true, size_bytes: true, id: true, hash: true, url: true, url_expires_at: true, job_id: true,
  };
  const urlFields: Record<keyof JobUrls, true> = { self: true, events: true, cancel: true, logs: true };
  const errorFields: Record<keyof JobError, true> = { code: true, message: true, node_id: true, class_type: true, traceback: true, node_errors: true };

  it('Job, Progress, Output and JobUrls have exactly the fields of the interface tables', () => {
    expect(sorted(job)).toEqual(sorted(fields));
    expect(sorted(job.progress!)).toEqual(sorted(progressFields));
    expect(sorted(job.outputs[0]!)).toEqual(sorted(outputFields));
    expect(sorted(job.urls)).toEqual(sorted(urlFields));
  });

  it('JobError has exactly the fields of its table, node_errors keyed by node id', () => {
    const error: JobError = jobs.job_error_raised;
    expect(sorted(error)).toEqual(sorted(errorFields));
    expect(error.node_errors?.['4']?.errors[0]?.type).toBe('value_bigger_than_max');
  });

  it('the terminal statuses are the four the state table names, and no other value is terminal', () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual([...jobs.job_status.terminal].sort());
    for (const status of jobs.job_status.values) expect(isTerminal(status)).toBe(jobs.job_status.terminal.includes(status));
  });
});

describe('job API v2 as published (the contract where the interface says "not shown")', () => {
  const p = jobs.published;

  it('the asset record has the published fields: no name, type or node id', () => {
    const asset: AssetRecord = p.asset;
    const fields: Record<Exclude<keyof AssetRecord, number>, true> = {
      id: true, hash: true, size_bytes: true, content_type: true, created_at: true, url: true, url_expires_at: true,
      file_path: true, created_new: true, expires_at: true, job_id: true,
    };
    expect(sorted(asset)).toEqual(sorted(fields));
    expect([...ASSET_REQUIRED_FIELDS]).toEqual(p.asset_required);
    for (const absent of ['name', 'type', 'node_id']) expect(asset).not.toHaveProperty(absent);
  });

  it('a typed asset reference is recognised by __type and info.id, and a bare id is not one', () => {
    const reference: AssetReference = p.asset_reference as AssetReference;
    expect(isAssetReference(reference)).toBe(true);
    expect(assetReference(p.asset)).toEqual(reference);
    for (const value of p.not_asset_references) expect(isAssetReference(value), JSON.stringify(value)).toBe(false);
    expect(claimsAssetReference({ __type: 'core/ASSET' })).toBe(true);
    expect(claimsAssetReference(p.asset.id)).toBe(false);
  });

  it('the event payloads are the published StatusEvent, PreviewEvent and LogEvent, under the five event names', () => {
    const status: StatusEvent = p.status_event;
    const preview: PreviewEvent = p.preview_event;
    const log: LogEvent = p.log_event;
    expect(sorted(status)).toEqual(['queue_position', 'status']);
    expect(sorted(preview)).toEqual(['content_type', 'data_base64', 'node_id']);
    expect(sorted(log)).toEqual(['level', 'message']);
    expect([...JOB_EVENT_NAMES]).toEqual(p.event_names);
  });

  it('logs, the workflow sub-resource and the job list have their published shapes', () => {
    const logs: JobLogs = p.job_logs;
    const workflow: JobWorkflowResponse = p.workflow_response;
    const list: JobList = p.job_list;
    expect(sorted(logs)).toEqual(['captured_at', 'text', 'truncated']);
    expect(sorted(workflow)).toEqual(['format', 'workflow']);
    expect(sorted(list)).toEqual(['jobs', 'truncated']);
    expect({ default: JOB_LIST_LIMIT_DEFAULT, max: JOB_LIST_LIMIT_MAX }).toEqual(p.job_list_limits);
  });

  it('submit and from-hash bodies, their bounds, and single-use keys expiring after 24 h', () => {
    const submit: SubmitRequest = p.submit_request;
    const fromHash: AssetFromHashRequest = p.from_hash_request;
    expect(sorted(submit)).toEqual(['extra_data', 'metadata', 'priority', 'workflow']);
    expect(sorted(fromHash)).toEqual(['expires_in', 'file_path', 'hash', 'tags']);
    expect(METADATA_MAX_BYTES).toBe(p.metadata_max_bytes);
    expect({ min: ASSET_EXPIRES_IN_MIN, max: ASSET_EXPIRES_IN_MAX }).toEqual(p.expires_in);
    expect(IDEMPOTENCY_KEY_TTL_MS).toBe(p.idempotency_key_ttl_hours * 3600 * 1000);
  });

  it('node errors may also come as lists of {field, reason}; output ids may be long opaque tokens', () => {
    const list: Record<string, JobNodeFieldError[]> = p.node_errors_field_list;
    expect(sorted(list['12']![0]!)).toEqual(['field', 'reason']);
    expect(SAFE_ID.test(p.opaque_output_id)).toBe(true);
  });
});

describe('error bodies', () => {
  it('the job API envelope and the router bodies type-check as the interface shows them', () => {
    const envelope: ErrorEnvelope = errors.error_envelope;
    const modelsError: RouterErrorResponse = errors.router_error_response;
    const validation: RouterValidationErrorResponse = errors.router_validation_error_response;
    const detailFields: Record<keyof RouterValidationErrorDetail, true> = { loc: true, msg: true, type: true, ctx: true, input: true };
    expect(sorted(envelope.error)).toEqual(['code', 'details', 'message']);
    expect(sorted(modelsError)).toEqual(['detail', 'error_type']);
    expect(sorted(validation.detail[0]!)).toEqual(sorted(detailFields));
  });

  it('the router bucket set is closed at the fifteen values of the interface', () => {
    expect(errors.router_error_types).toHaveLength(15);
    expect([...ROUTER_ERROR_TYPES].sort()).toEqual([...errors.router_error_types].sort());
  });
});

describe('router catalog resources', () => {
  it('a list page and a model detail have exactly the fields of the interface', () => {
    const page: RouterModelListResponse = router.list_response;
    const detail: RouterModelDetail = router.detail;
    const pageFields: Record<keyof RouterModelListResponse, true> = { data: true, has_more: true, next_cursor: true, limit: true };
    const detailFields: Record<keyof RouterModelDetail, true> = { id: true, provider: true, model: true, billing: true, input_schema_url: true };
    expect(sorted(page)).toEqual(sorted(pageFields));
    expect(sorted(detail)).toEqual(sorted(detailFields));
    expect(detail.id).toBe(`${detail.provider}/${detail.model}`);
  });

  it('the list limit defaults to 20 and is clamped at 100', () => {
    expect({ list_limit_default: LIST_LIMIT_DEFAULT, list_limit_max: LIST_LIMIT_MAX }).toEqual(router.limits);
  });
});

describe('the published router (/v2), beside the interface', () => {
  const pub = router.published;
  it('keeps the interface routes at /v1 and puts the published ones under /v2, the queue beneath a model', () => {
    const ref = parseModelId('bfl/flux-pro-1.1');
    const id = pub.queue_submit.request_id;
    expect(modelsPath()).toBe('/v1/models');
    expect(modelPath(ref)).toBe('/v1/models/bfl/flux-pro-1.1');
    expect({ catalog: modelsPath('v2'), model: modelPath(ref, 'v2'), requests: requestsPath(ref), result: requestPath(ref, id), status: requestPath(ref, id, 'status'), cancel: requestPath(ref, id, 'cancel') }).toEqual(pub.routes);
  });

  it('queue handles, states and cancel answers have exactly the published fields', () => {
    const submitted: RouterQueueSubmitResponse = pub.queue_submit as RouterQueueSubmitResponse;
    const failed: RouterQueueStatusResponse = pub.queue_status_failed as RouterQueueStatusResponse;
    const cancel: RouterQueueCancelResponse = pub.queue_cancel as RouterQueueCancelResponse;
    const statusFields: Record<keyof RouterQueueStatusResponse, true> = { request_id: true, status: true, queue_position: true, error_type: true, status_url: true, response_url: true, cancel_url: true };
    const { error_type: _e, ...submitFields } = statusFields;
    expect(sorted(submitted)).toEqual(sorted(submitFields));
    expect(sorted(failed)).toEqual(sorted(statusFields).filter((k) => k !== 'queue_position'));
    expect(sorted(cancel)).toEqual(['request_id', 'status']);
    expect([...QUEUE_STATUSES]).toEqual(pub.queue_statuses);
    const cancelStatuses: RouterQueueCancelStatus[] = ['CANCELLATION_REQUESTED', 'ALREADY_COMPLETED'];
    expect(cancelStatuses).toEqual(pub.cancel_statuses);
  });

  it('request ids are lowercase UUIDs; the headers without the maker\'s name are named as published; run reads accept bytes too', () => {
    expect(QUEUE_REQUEST_ID.source).toBe(pub.request_id_pattern);
    expect(requestIdProblem(pub.queue_submit.request_id)).toBeUndefined();
    expect(requestIdProblem(pub.queue_submit.request_id.toUpperCase())).toMatch(/lowercase UUID/);
    expect(ROUTER_HEADERS).toEqual(pub.headers);
    expect(PUBLISHED_RUN_ACCEPT).toBe(pub.run_accept);
  });

  it("the maker's names: X-Comfy-* and api_key_comfy_org as real servers speak them, X-Service-* and api_key_service_org as the interface writes them", () => {
    const names = router.maker_names;
    for (const mode of NAME_MODES) {
      expect(Object.fromEntries(MAKER_HEADER_ROLES.map((role) => [role, makerHeader(role, mode)]))).toEqual(names[mode].headers);
      expect({ apiKey: extraDataField('apiKey', mode), authToken: extraDataField('authToken', mode) }).toEqual(names[mode].extra_data);
    }
    expect(PARTNER_KEY_FIELD).toBe(names.comfy.extra_data.apiKey);
    expect(PARTNER_TOKEN_FIELD).toBe(names.comfy.extra_data.authToken);
    // A client reads the real name first and the neutral one where only it came.
    expect(readMakerHeader({ 'x-comfy-error-type': 'a', 'x-service-error-type': 'b' }, 'errorType')).toBe('a');
    expect(readMakerHeader({ 'x-service-error-type': 'b' }, 'errorType')).toBe('b');
    expect(readMakerHeader({}, 'errorType')).toBeUndefined();
    expect(JSON.parse(names.dropped_params_example)).toEqual(['moderation (fal applies its own, non-configurable safety filtering)']);
    const submit: SubmitRequest = { workflow: {}, extra_data: { api_key_comfy_org: 'k' } };
    expect(Object.keys(submit.extra_data!)).toEqual([PARTNER_KEY_FIELD]);
  });

  it('the published buckets are the fifteen and four of queued delivery; an error may carry upstream_detail', () => {
    expect(errors.published_router_error_types).toHaveLength(19);
    expect([...PUBLISHED_ROUTER_ERROR_TYPES].sort()).toEqual([...errors.published_router_error_types].sort());
    expect([...ROUTER_QUEUE_ERROR_TYPES].every((t) => !ROUTER_ERROR_TYPES.has(t))).toBe(true);
    const published: PublishedRouterErrorResponse = errors.published_router_error_response;
    expect(sorted(published)).toEqual(['detail', 'error_type', 'upstream_detail']);
  });
});

describe('model id and cursor grammar', () => {
  it('keeps the lengths of "Limits"', () => {
    expect({ provider_max: PROVIDER_MAX, model_max: MODEL_MAX, id_max: MODEL_ID_MAX, cursor_max: CURSOR_MAX }).toEqual({
      provider_max: ids.provider_max, model_max: ids.model_max, id_max: ids.id_max, cursor_max: ids.cursor_max,
    });
    expect(CURSOR_PATTERN.source).toBe(ids.cursor_pattern);
  });

  it('accepts and refuses ids exactly as the interface pattern does', () => {
    const pattern = new RegExp(ids.id_pattern);
    for (const id of ids.valid_ids) {
      expect(pattern.test(id), id).toBe(true);
      expect(parseModelId(id).id).toBe(id);
    }
    for (const id of ids.invalid_ids) {
      expect(pattern.test(id), id).toBe(false);
      expect(isModelId(id), id).toBe(false);
    }
  });

  it('bounds each segment at its maxLength and the whole id at 193', () => {
    expect(segmentProblem('provider', 'a'.repeat(ids.provider_max))).toBeUndefined();
    expect(segmentProblem('provider', 'a'.repeat(ids.provider_max + 1))).toMatch(/at most 64/);
    expect(segmentProblem('model', 'a'.repeat(ids.model_max))).toBeUndefined();
    expect(segmentProblem('model', 'a'.repeat(ids.model_max + 1))).toMatch(/at most 128/);
    expect(isModelId(`${'p'.repeat(64)}/${'m'.repeat(128)}`)).toBe(true); // 64 + 1 + 128 = 193
  });

  it('recognizes cursors by the RouterPageCursor pattern', () => {
    for (const cursor of ids.valid_cursors) expect(CURSOR_PATTERN.test(cursor), cursor).toBe(true);
    for (const cursor of ids.invalid_cursors) expect(CURSOR_PATTERN.test(cursor), cursor).toBe(false);
  });
});

describe('cloud API v1 resources and messages', () => {
  it('type-checks the interface shapes and what a real engine was seen to send', () => {
    const shapes: [V1UploadResult, V1UploadResult, V1PromptResponse, V1PromptResponse, V1PromptResponse, V1Queue, V1Queue, V1FileRef] = [
      legacy.upload_result,
      legacy.observed.upload_result,
      legacy.submit_result,
      legacy.observed.prompt_accepted,
      legacy.observed.prompt_refused_validation,
      legacy.queue,
      legacy.observed.queue,
      legacy.file_ref,
    ];
    expect(shapes.map((s) => sorted(s))).toEqual([
      ['name', 'subfolder'],
      ['name', 'subfolder', 'type'],
      ['prompt_id'],
      ['node_errors', 'number', 'prompt_id'],
      ['error', 'node_errors'],
      ['queue_pending', 'queue_running'],
      ['queue_pending', 'queue_running'],
      ['filename', 'subfolder', 'type'],
    ]);
  });

  it('the observed WebSocket sequence and execution_error are V1WsMessage values of the named types', () => {
    const messages = [...legacy.observed.ws_sequence, legacy.observed.execution_error] as V1WsMessage[];
    for (const message of messages) expect(legacy.ws_message_types).toContain(message.type);
    const error = legacy.observed.execution_error as Extract<V1WsMessage, { type: 'execution_error' }>;
    expect(sorted(error.data)).toEqual(
      ['current_inputs', 'current_outputs', 'exception_message', 'exception_type', 'executed', 'node_id', 'node_type', 'prompt_id', 'timestamp', 'traceback'],
    );
  });

  it('the status endpoint is terminal on exactly the named values (the interface\'s and the published document\'s)', () => {
    expect([...V1_TERMINAL_STATUSES].sort()).toEqual([...legacy.terminal_statuses].sort());
    for (const status of legacy.in_flight_statuses) expect(isV1Terminal(status), status).toBe(false);
  });
});

interface FixtureFrame {
  type: number;
  format?: string;
  image_hex?: string;
  nodeId?: string;
  text?: string;
  metadata?: PreviewMetadata;
}

function toFrame(f: FixtureFrame): BinaryFrame {
  const image = Uint8Array.from(Buffer.from(f.image_hex ?? '', 'hex'));
  const format = f.format as 'png' | 'jpeg';
  if (f.type === FRAME_TEXT) return { type: FRAME_TEXT, nodeId: f.nodeId!, text: f.text! };
  if (f.type === FRAME_PREVIEW_IMAGE_WITH_METADATA) return { type: FRAME_PREVIEW_IMAGE_WITH_METADATA, metadata: f.metadata!, format, image };
  return { type: FRAME_PREVIEW_IMAGE, format, image };
}

describe('binary WebSocket frames', () => {
  it('uses the type and image_type numbers of the frame table, and its metadata keys', () => {
    expect({ PREVIEW_IMAGE: FRAME_PREVIEW_IMAGE, TEXT: FRAME_TEXT, PREVIEW_IMAGE_WITH_METADATA: FRAME_PREVIEW_IMAGE_WITH_METADATA }).toEqual(frames.frame_types);
    expect({ JPEG: IMAGE_TYPE_JPEG, PNG: IMAGE_TYPE_PNG }).toEqual(frames.image_types);
    const keys: Record<Exclude<keyof PreviewMetadata, 'image_type'>, true> = {
      node_id: true, display_node_id: true, real_node_id: true, prompt_id: true, parent_node_id: true,
    };
    expect(sorted(keys)).toEqual([...frames.metadata_keys].sort());
  });

  for (const golden of frames.frames) {
    it(`encodes and decodes ${golden.name} byte for byte`, () => {
      const frame = toFrame(golden.frame);
      expect(Buffer.from(encodeFrame(frame)).toString('hex')).toBe(golden.hex);
      expect(decodeFrame(Uint8Array.from(Buffer.from(golden.hex, 'hex')))).toEqual({ ok: true, frame });
    });
  }

  for (const bad of frames.refused) {
    it(`refuses a frame: ${bad.name}`, () => {
      const result = decodeFrame(Uint8Array.from(Buffer.from(bad.hex, 'hex')));
      expect(result.ok).toBe(false);
    });
  }
});
