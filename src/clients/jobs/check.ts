// Every answer is untrusted: before a command relies on a Job or an asset record, the fields it
// reads are checked for their types, so a malformed answer is one clear error, not a crash later.
import type { HttpResponse } from '../../http/client.js';
import type { WesError } from '../../errors.js';
import type { AssetRecord, Job, JobWorkflowResponse } from '../../protocol/jobs.js';
import { badResponse as badResponseOf, isRecord, SAFE_ID } from '../shared/response-check.js';


export { isRecord };

/** A malformed answer of this API family. */
export function badResponse(what: string, res: HttpResponse<unknown>): WesError {
  return badResponseOf('jobs', what, res);
}

const OUTPUT_STRINGS = ['name', 'id', 'url'] as const;


/** Why an output cannot be used, or undefined when it can. */
function outputProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'is not an object';
  for (const key of OUTPUT_STRINGS) if (typeof value[key] !== 'string') return `has no string \`${key}\``;
  if (!SAFE_ID.test(value.id as string)) return 'has an `id` that is not printable ASCII';
  if (value.hash !== null && value.hash !== undefined && typeof value.hash !== 'string') return 'has a `hash` that is not a string';
  if (value.size_bytes !== undefined && typeof value.size_bytes !== 'number') return 'has a `size_bytes` that is not a number';
  return undefined;
}

export function checkJob(res: HttpResponse<unknown>): Job {
  return checkJobValue(res.body, res);
}

function checkJobValue(body: unknown, res: HttpResponse<unknown>): Job {
  if (!isRecord(body)) throw badResponse('the job is not a JSON object', res);
  if (typeof body.id !== 'string' || !SAFE_ID.test(body.id)) throw badResponse('the job has no `id` of printable ASCII', res);
  if (typeof body.status !== 'string') throw badResponse('the job has no `status`', res);
  const urls = body.urls;
  if (!isRecord(urls) || typeof urls.self !== 'string') throw badResponse('the job has no `urls.self`', res);
  for (const key of ['events', 'cancel', 'logs'] as const) {
    if (urls[key] !== undefined && typeof urls[key] !== 'string') throw badResponse(`the job's \`urls.${key}\` is not a string`, res);
  }
  if (!Array.isArray(body.outputs)) throw badResponse('the job has no `outputs` array', res);
  body.outputs.forEach((o, i) => {
    const problem = outputProblem(o);
    if (problem) throw badResponse(`output ${i} of the job ${problem}`, res);
  });
  if (body.progress !== null && body.progress !== undefined && !isRecord(body.progress)) throw badResponse('the job `progress` is not an object', res);
  if (body.error !== null && body.error !== undefined && !isRecord(body.error)) throw badResponse('the job `error` is not an object', res);
  return body as unknown as Job;
}

/** Why an asset record (the published contract's `Asset`: no name, type or node) cannot be used. */
function assetProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'is not an object';
  for (const key of ['id', 'url'] as const) if (typeof value[key] !== 'string') return `has no string \`${key}\``;
  if (!SAFE_ID.test(value.id as string)) return 'has an `id` that is not printable ASCII';
  if (value.hash !== null && value.hash !== undefined && typeof value.hash !== 'string') return 'has a `hash` that is not a string';
  if (value.size_bytes !== undefined && typeof value.size_bytes !== 'number') return 'has a `size_bytes` that is not a number';
  for (const key of ['file_path', 'content_type', 'created_at', 'url_expires_at', 'expires_at', 'job_id'] as const) {
    if (value[key] !== undefined && value[key] !== null && typeof value[key] !== 'string') return `has a \`${key}\` that is not a string`;
  }
  return undefined;
}

export function checkAsset(res: HttpResponse<unknown>): AssetRecord {
  const problem = assetProblem(res.body);
  if (problem) throw badResponse(`the asset record ${problem}`, res);
  return res.body as AssetRecord;
}

export function checkJobWorkflow(res: HttpResponse<unknown>): JobWorkflowResponse {
  const body = res.body;
  if (!isRecord(body) || !isRecord(body.workflow)) throw badResponse('the answer has no `workflow` object', res);
  if (typeof body.format !== 'string') throw badResponse('the answer has no string `format`', res);
  return body as unknown as JobWorkflowResponse;
}
