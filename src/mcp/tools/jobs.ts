// The job tools: submit, get, wait, cancel, list and find by key, each over the feature or client
// the `wes jobs` verbs use (single-use Idempotency-Keys, a lost answer looked up by its key, the
// history of this machine, @last references).
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { ApiError, ExitCode, UsageError, WesError, toWesError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { findJobByKey } from '../../clients/jobs/keyed-submit.js';
import { labelPairProblem, USER_LABELS_MAX } from '../../clients/jobs/labels.js';
import { walkJobList } from '../../clients/jobs/list-walk.js';
import { submitJob } from '../../features/jobs/submit.js';
import { jobHistory, recordStatus } from '../../features/jobs/history.js';
import { parseSet, parseValue, type InputAssignment } from '../../features/jobs/inputs.js';
import { readJob } from '../../command-kit/jobs/read-job.js';
import { checkInputNames } from '../../command-kit/jobs/set-input-names.js';
import { savedWorkflowToRun } from '../../command-kit/workflows/saved-workflow.js';
import { JOB_LIST_LIMIT_MAX, isTerminal } from '../../protocol/jobs.js';
import { jobLine, transferReporter } from '../reporters.js';
import { defineTool, str, type ToolCall } from '../tool.js';
import { workflowOf, WORKFLOW_SCHEMA, type WorkflowArg } from '../workflow-arg.js';
import { jobOutcome, TIMEOUT_SCHEMA, waitForEnd } from './follow.js';

const JOB_ID = str('The job id (or @last, @N: the N-th latest job submitted from this machine with this profile).', { minLength: 1 });

/** `{"NODE.INPUT": value}` as `--set NODE.INPUT=VALUE`: a string `@PATH` uploads that file, `asset:ID` names an asset; any other value goes in as it is. */
function assignmentOf(target: string, value: unknown, workflow: Record<string, unknown>): InputAssignment {
  const at = parseSet(`${target}=null`, workflow);
  const given = typeof value === 'string' && (value.startsWith('@') || value.startsWith('asset:')) ? parseValue(value) : { kind: 'value' as const, value };
  return { ...at, value: given };
}

/** The labels as `--label key=value` takes them: each pair checked by the strictest (serverless) rules. */
function labelsOf(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return undefined;
  if (entries.length > USER_LABELS_MAX) throw new UsageError(`labels: at most ${USER_LABELS_MAX} pairs (${entries.length} given)`);
  for (const [k, v] of entries) {
    const problem = labelPairProblem(k, v);
    if (problem) throw new UsageError(`labels: ${JSON.stringify(k)}: ${problem}`);
  }
  return Object.fromEntries(entries);
}

interface SubmitArgs {
  workflow?: WorkflowArg;
  saved?: string;
  inputs?: Record<string, unknown>;
  labels?: Record<string, string>;
  wait?: boolean;
  timeout_seconds?: number;
  convert?: boolean;
  idempotency_key?: string;
}

/** The graph to submit and what the history calls it: the one given (a graph or a file), or the one saved on the server by name. */
async function workflowToSubmit(call: ToolCall, args: SubmitArgs): Promise<{ workflow: Record<string, unknown>; source: string }> {
  if ((args.workflow === undefined) === (args.saved === undefined)) throw new UsageError('give either "workflow" or "saved", one of the two', 'workflow: the graph or a file path; saved: the name of a workflow saved on the server');
  if (args.saved !== undefined) {
    const saved = await savedWorkflowToRun(call.f, args.saved, {});
    return { workflow: saved.workflow, source: `saved ${saved.name}` };
  }
  const workflow = await workflowOf(call.f, args.workflow!, args.convert === true);
  return { workflow, source: typeof args.workflow === 'string' ? basename(args.workflow) : 'mcp' };
}

const submit = defineTool<SubmitArgs>({
  name: 'submit_job',
  description:
    'Submit a workflow (a node graph) to the job API as one job, and optionally wait for it to end. Inputs are set as {"NODE.INPUT": value} (a string "@/path/file.png" uploads a local file as an asset, "asset:ID" names an uploaded one). ' +
    'The submit carries a single-use Idempotency-Key: when its answer is lost it is looked up by that key and reported found, or fails with code in_doubt (exit 11) — never sent twice. Do not resubmit after in_doubt: look with find_job first. ' +
    'Returns the job (id, status, progress, outputs); with wait, its end. Then download_outputs saves the outputs.',
  inputSchema: {
    type: 'object',
    properties: {
      workflow: WORKFLOW_SCHEMA,
      saved: str('Instead of workflow: the name of a workflow saved in the editor on the server (as `wes workflows list --remote` lists it, e.g. "portrait.json"), fetched and converted with the server\'s node definitions.', { minLength: 1 }),
      inputs: { type: 'object', description: 'Inputs to set before sending, as {"NODE.INPUT": value}, like `wes jobs submit --set`. Example: {"3.seed": 42, "6.text": "a red fox"}.', additionalProperties: true },
      labels: { type: 'object', description: 'Labels of your own kept with the job, as {"name": "value"}.', additionalProperties: { type: 'string' } },
      wait: { type: 'boolean', description: 'Wait for the job to end (progress notifications while it runs), bounded by timeout_seconds. Default false.' },
      timeout_seconds: TIMEOUT_SCHEMA,
      convert: { type: 'boolean', description: "Convert a workflow saved in the editor's UI format to the API format first, with the server's node definitions. Default false." },
      idempotency_key: str('The single-use Idempotency-Key to send (default: a new random one). A key used before finds the job it made instead of making another.', { minLength: 1, maxLength: 255 }),
    },
    additionalProperties: false,
  },
  annotations: { title: 'Submit a workflow as a job', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(call, args) {
    const { f } = call;
    const { workflow, source } = await workflowToSubmit(call, args);
    const assignments = Object.entries(args.inputs ?? {}).map(([target, value]) => assignmentOf(target, value, workflow));
    await checkInputNames(f, workflow, assignments, false);
    const key = args.idempotency_key ?? randomUUID();
    const client = f.client(JobsClient);
    const submitted = await submitJob(f, client, key, { workflow, assignments, keyGiven: args.idempotency_key !== undefined, labels: labelsOf(args.labels), source }, transferReporter(call));
    const about = { idempotency_key: key, how: submitted.how, ...(submitted.recovered ? { recovered: submitted.recovered } : {}) };
    if (!args.wait) {
      const { job } = submitted.job;
      return { summary: `submitted ${jobLine(job)}${submitted.recovered ? ` (${submitted.recovered})` : ''}; follow it with wait_job`, structured: { ...about, job, finished: isTerminal(job.status) } };
    }
    const out = jobOutcome(await waitForEnd(call, submitted.job, args.timeout_seconds).catch((err: unknown) => Promise.reject(runsOn(err, submitted.job.job.id))), about);
    return submitted.recovered ? { ...out, summary: `${submitted.recovered}. ${out.summary}` } : out;
  },
});

/** A wait that failed after the submit succeeded: the job was made and runs on, so the agent must follow it, never submit again. */
function runsOn(err: unknown, id: string): WesError {
  const wes = toWesError(err);
  const follow = `job ${id} was submitted and runs on: follow it with wait_job {"job_id": "${id}"}; do not submit it again`;
  wes.hint = wes.hint ? `${follow}; ${wes.hint}` : follow;
  return wes;
}

async function currentJob(call: ToolCall, ref: string) {
  return readJob(call.f, call.f.client(JobsClient), ref);
}

const get = defineTool<{ job_id: string }>({
  name: 'get_job',
  description: 'Read a job as the service has it now: status, progress, queue position, outputs (names, types, sizes, hashes) and error. Does not wait.',
  inputSchema: { type: 'object', properties: { job_id: JOB_ID }, required: ['job_id'], additionalProperties: false },
  annotations: { title: 'Get a job', readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const { job } = await currentJob(call, args.job_id);
    return { summary: jobLine(job), structured: { job, finished: isTerminal(job.status) } };
  },
});

const wait = defineTool<{ job_id: string; timeout_seconds?: number }>({
  name: 'wait_job',
  description:
    'Wait for a job to end (succeeded, failed, canceled, expired), sending MCP progress notifications while it runs (when the call has a progressToken). ' +
    'Survives a broken event stream or a server restart by polling. Returns finished: false when timeout_seconds passed first (call it again); a failed job is a result with its error, not a tool error.',
  inputSchema: { type: 'object', properties: { job_id: JOB_ID, timeout_seconds: TIMEOUT_SCHEMA }, required: ['job_id'], additionalProperties: false },
  annotations: { title: 'Wait for a job to end', readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    return jobOutcome(await waitForEnd(call, await currentJob(call, args.job_id), args.timeout_seconds));
  },
});

const cancel = defineTool<{ job_id: string }>({
  name: 'cancel_job',
  description: 'Cancel a queued or running job (its work stops and its outputs so far may be lost). Cancelling a job that has ended changes nothing. Returns the job as it is after the request.',
  inputSchema: { type: 'object', properties: { job_id: JOB_ID }, required: ['job_id'], additionalProperties: false },
  annotations: { title: 'Cancel a job', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run(call, args) {
    const { f } = call;
    const client = f.client(JobsClient);
    const current = await readJob(f, client, args.job_id);
    if (isTerminal(current.job.status)) return { summary: `job ${current.job.id} has already ended (${current.job.status}); nothing to cancel`, structured: { job: current.job, canceled: false } };
    const after = await client.cancel(current);
    recordStatus(f, after.job, (line) => call.log('debug', line));
    return { summary: `asked the service to cancel job ${after.job.id} (status now ${after.job.status})`, structured: { job: after.job, canceled: true } };
  },
});

interface ListArgs {
  source?: 'server' | 'history';
  status?: string;
  limit?: number;
}

const list = defineTool<ListArgs>({
  name: 'list_jobs',
  description:
    "List jobs, newest first: the server's own job list (source \"server\", the default, where the server keeps one; otherwise this machine's history is listed and the result says so), or the jobs submitted from this machine with this profile (source \"history\", with their last known status).",
  inputSchema: {
    type: 'object',
    properties: {
      source: { type: 'string', enum: ['server', 'history'], description: 'Where to list from. Default "server".' },
      status: { type: 'string', enum: ['queued', 'running', 'canceling', 'succeeded', 'failed', 'canceled', 'expired'], description: 'Only jobs with this status.' },
      limit: { type: 'integer', minimum: 1, maximum: JOB_LIST_LIMIT_MAX, description: 'At most this many jobs (default 20).' },
    },
    additionalProperties: false,
  },
  annotations: { title: 'List jobs', readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const { f } = call;
    const limit = args.limit ?? 20;
    let note: string | undefined;
    if (args.source !== 'history') {
      try {
        const { reads, items } = await walkJobList(f.client(JobsClient), { status: args.status }, limit);
        const last = reads.at(-1)?.page;
        const more = last?.truncated === true || (last?.dialect === 'cursor' && last.nextCursor !== undefined);
        const jobs = items.map((item) => item.raw);
        return { summary: `${jobs.length} job(s) on the server${more ? ' (more exist)' : ''}`, structured: { source: 'server', jobs, truncated: more } };
      } catch (err) {
        if (!(err instanceof ApiError) || err.origin !== 'jobs' || ![404, 405, 501].includes(err.status ?? 0)) throw err;
        note = `this server keeps no job list (GET /api/v2/jobs answered ${err.status}); these are the jobs submitted from this machine`;
      }
    }
    const entries = jobHistory(f).entries().filter((e) => args.status === undefined || e.status === args.status).slice(0, limit);
    return { summary: note ?? `${entries.length} job(s) in this machine's history`, structured: { source: 'history', jobs: entries, ...(note ? { note } : {}) } };
  },
});

const find = defineTool<{ idempotency_key: string }>({
  name: 'find_job',
  description:
    'Find the job a submit made by its Idempotency-Key (named in an in_doubt error\'s details), in the server\'s job list. Use it before ever resubmitting a workflow whose submit ended in doubt.',
  inputSchema: { type: 'object', properties: { idempotency_key: str('The Idempotency-Key the submit was sent with.', { minLength: 1 }) }, required: ['idempotency_key'], additionalProperties: false },
  annotations: { title: 'Find a job by its Idempotency-Key', readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const key = args.idempotency_key;
    const search = await findJobByKey(call.f.client(JobsClient), key);
    if (search.kind === 'found') return { summary: `found ${jobLine(search.value.job)} by Idempotency-Key ${key}`, structured: { found: true, job: search.value.job } };
    const message =
      search.kind === 'no-list'
        ? `${search.reason}: a job made with Idempotency-Key ${key} cannot be looked up here`
        : search.proven
          ? `no job on the server carries Idempotency-Key ${key}: the submit made none, submitting again is safe`
          : `no job carrying Idempotency-Key ${key} is among the ${search.searched} newest on the server`;
    throw new WesError(message, { exitCode: ExitCode.NOT_FOUND, code: 'not_found', origin: 'jobs', details: { idempotency_key: key, search: search.kind }, hint: search.kind === 'absent' && search.proven ? 'submit again (a new key is made)' : 'submitting again may run the workflow twice' });
  },
});

export const JOB_TOOLS = [submit, get, wait, cancel, list, find];
