// A job API v2 command sent to a self-hosted ComfyUI engine gets its web server's answer for a
// route it lacks: a 404 (empty, or `404: Not Found` text) for a GET, a plain-text 405 for a POST.
// The engine has no v2 at all: said in one sentence that points to `wes legacy`, instead.
import type { Factory } from '../../factory.js';
import { ApiError, ExitCode, WesError } from '../../errors.js';
import { describeEngine, engineOf } from './engine.js';

/** A 404 or 405 of the job API that is not the job API's own error envelope (the server has no such route). */
export function isMissingJobApi(err: unknown): err is ApiError {
  return err instanceof ApiError && err.origin === 'jobs' && (err.status === 404 || err.status === 405) && (err.code === `http_${err.status}` || err.code === 'not_job_api');
}

export async function explainMissingJobApi(f: Factory, err: ApiError): Promise<WesError> {
  let identity;
  try {
    identity = await engineOf(f);
  } catch {
    return err; // the server cannot say what it is: the 404 stands as it was
  }
  if (identity.kind !== 'self-hosted') return err;
  return new WesError(
    `this server is ${describeEngine(identity)}, which has no job API v2: use \`wes legacy\` with it (e.g. \`wes legacy prompt flow.json --wait\`)`,
    { exitCode: ExitCode.NOT_FOUND, code: 'no_job_api', status: 404, origin: 'jobs' },
  );
}

/** The error path's explainer (registered by legacy/group.ts): a job API 404 or 405 from an engine, said as such. */
export async function explain(f: Factory, err: unknown): Promise<unknown> {
  return isMissingJobApi(err) ? explainMissingJobApi(f, err) : err;
}
