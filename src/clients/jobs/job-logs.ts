// What a run printed, in every form the published contract and the interface give it: a `logs`
// object on the job itself (`JobLogs`: {text, truncated, captured_at}; absent, never null, when
// there is none), or the job's `urls.logs` link answering that object as JSON, plain text, or 204
// (no log for this job). A job with neither keeps no logs on this surface. No printing.
import type { Readable } from 'node:stream';
import { readBounded } from '../../http/answer-limit.js';
import { ExitCode, WesError } from '../../errors.js';
import type { FetchedJob, JobsClient } from './client.js';
import { isRecord } from '../shared/response-check.js';
import type { Job, JobLogs } from '../../protocol/jobs.js';

/** What reading a job's log gave: the service's object, a text stream, or nothing and why. */
export type JobLogsRead =
  | { kind: 'object'; logs: JobLogs }
  | { kind: 'text'; body: Readable }
  | { kind: 'none'; reason: 'no_logs_on_surface' | 'empty' };

export function isJobLogs(value: unknown): value is JobLogs {
  return isRecord(value) && typeof value.text === 'string' && typeof value.truncated === 'boolean' && typeof value.captured_at === 'string';
}

function notJobLogs(what: string): WesError {
  return new WesError(`unreadable response: ${what} is not a {text, truncated, captured_at} log object`, { exitCode: ExitCode.ERROR, code: 'bad_response', origin: 'jobs' });
}

/** The job's own `logs`, when it carries a well-formed one. */
export function jobLogsOf(job: Job): JobLogs | undefined {
  return isJobLogs(job.logs) ? job.logs : undefined;
}

/** The job's log: its own `logs` first (no request), else what its logs link answers. */
export async function readJobLogs(client: JobsClient, current: FetchedJob): Promise<JobLogsRead> {
  const { job } = current;
  if (job.logs !== undefined) {
    if (!isJobLogs(job.logs)) throw notJobLogs("the job's `logs`");
    return { kind: 'object', logs: job.logs };
  }
  const link = job.urls.logs;
  if (!link) return { kind: 'none', reason: 'no_logs_on_surface' };
  const answer = await client.logs(current, link);
  if (answer.kind === 'empty') return { kind: 'none', reason: 'empty' };
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(answer.contentType)) return { kind: 'text', body: answer.body };
  const bytes = await readBounded(answer.body, client.http.maxAnswerBytes, answer.contentLength, answer.origin);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw notJobLogs('the log answer');
  }
  if (!isJobLogs(value)) throw notJobLogs('the log answer');
  return { kind: 'object', logs: value };
}
