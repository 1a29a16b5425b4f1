// wes jobs logs <id>: follows the job's logs link and streams the text, sanitized, to stdout.
// No link: the surface keeps no logs. 204: this job printed nothing. A 404 from the link cannot
// tell a gone job from a surface without the operation, so the message names both.
import type { Factory } from '../../factory.js';
import { ApiError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { streamSanitized } from './stream-text.js';
import { resolveJobRef } from './history.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const { io } = f;
  const client = new JobsClient(f.http());
  const current = await client.get(resolveJobRef(f, args[0]!));
  const link = current.job.urls.logs;
  if (!link) {
    if (io.json) io.printJson({ job_id: current.job.id, log: null, reason: 'no_logs_on_surface' });
    io.info('this surface keeps no logs');
    return 0;
  }
  let answer;
  try {
    answer = await client.logs(current, link);
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
  if (answer.kind === 'empty') {
    if (io.json) io.printJson({ job_id: current.job.id, log: null, reason: 'empty' });
    io.info('no log for this job');
    return 0;
  }
  if (io.json) {
    // One JSON document: the text exactly as sent (the JSON writer escapes control characters).
    const text = Buffer.concat(await answer.body.toArray()).toString('utf8');
    io.printJson({ job_id: current.job.id, log: text, reason: null });
    return 0;
  }
  await streamSanitized(answer.body, io.stdout);
  return 0;
}
