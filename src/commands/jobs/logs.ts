// wes jobs logs <id>: what the run printed, from the job's own `logs` object or its logs link
// (JSON {text, truncated, captured_at}, plain text, or 204), sanitized to stdout; when the service
// kept only the tail of a longer log, stderr says so. No log anywhere: the surface keeps none. A
// 404 from the link cannot tell a gone job from a surface without the operation, so the message
// names both. --json: {job_id, logs, reason}, `logs` the service's object unchanged.
import { Readable } from 'node:stream';
import type { Factory } from '../../factory.js';
import { ApiError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { readJobLogs, type JobLogsRead } from '../../clients/jobs/job-logs.js';
import { isTerminal } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { streamSanitized } from './stream-text.js';
import { JOB_ID_HELP, readJob } from '../../command-kit/jobs/read-job.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

async function logsOf(client: JobsClient, current: Awaited<ReturnType<typeof readJob>>): Promise<JobLogsRead> {
  try {
    return await readJobLogs(client, current);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    throw new ApiError('no log found: the job is gone (past its expiry), or this surface does not serve logs', {
      status: 404,
      origin: 'jobs',
      code: err.code,
      requestId: err.requestId,
      headers: err.headers,
    });
  }
}

const positional = { id: arg('<id>', undefined, { values: { kind: 'jobs' } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const { io } = f;
  const client = f.client(JobsClient);
  const current = await readJob(f, client, args.id);
  const id = current.job.id;
  const read = await logsOf(client, current);
  if (read.kind === 'none') {
    if (io.json) io.printJson({ job_id: id, logs: null, reason: read.reason });
    if (!isTerminal(current.job.status)) io.info(sanitizeLine(`no log for this job yet: it is ${current.job.status}, and a log (where this server keeps them) is read back once it has ended`));
    else io.info(read.reason === 'no_logs_on_surface' ? 'this server keeps no logs of what jobs print (its jobs carry no logs link)' : 'no log for this job');
    return 0;
  }
  if (read.kind === 'text' && io.json) {
    // One JSON document: the text exactly as sent (the JSON writer escapes control characters).
    const text = Buffer.concat(await read.body.toArray()).toString('utf8');
    io.printJson({ job_id: id, logs: { text }, reason: null });
    return 0;
  }
  if (read.kind === 'text') {
    await streamSanitized(read.body, io.stdout);
    return 0;
  }
  const { logs } = read;
  if (io.json) {
    io.printJson({ job_id: id, logs, reason: null });
    return 0;
  }
  const text = logs.text === '' || logs.text.endsWith('\n') ? logs.text : `${logs.text}\n`;
  await streamSanitized(Readable.from([Buffer.from(text)]), io.stdout);
  if (logs.truncated) io.info(logs.text === '' ? 'the service captured this log and then shed it entirely to fit its bounds' : sanitizeLine(`(this is the tail of a longer log: the service kept its last part; captured ${logs.captured_at})`));
  return 0;
}

export default defineVerb({
  path: ['jobs', 'logs'],
  args: positional,
  options: noOptions(),
  help: {
    summary: 'Print what the run printed (on deployments that keep logs)',
    after: [
      `
The log comes from the job itself (its "logs" object) or its logs link; stderr says when the
service kept only the tail of a longer log. --json: {job_id, logs, reason}.

Examples:
  $ wes jobs logs "$ID"
  $ wes jobs logs "$ID" > run.log`,
      `\n${JOB_ID_HELP}`,
    ],
  },
  run,
});
