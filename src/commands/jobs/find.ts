// wes jobs find --key KEY: the job a submit made, found by the Idempotency-Key its label names.
// What a submit in doubt (exit 11) points to: keys are single use, so the job is looked for in
// the server's job list instead of being asked for again.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { findJobByKey } from '../../clients/jobs/keyed-submit.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { recordStatus } from '../../features/jobs/history.js';
import { idempotencyKey } from '../option-values.js';
import { valueOption, type OptionsDeclaration } from '../typed-options.js';
import { defineVerb } from '../verb.js';

interface JobsFindOptions {
  key: string;
}

const jobsFindOptions = (): OptionsDeclaration<JobsFindOptions> => ({
  key: valueOption('--key <key>', 'the Idempotency-Key the submit was sent with (an in-doubt error names it)', idempotencyKey).makeOptionMandatory(),
});

/** Which deployments keep a job list this command can search. */
const WHO_CAN_ANSWER = 'serverless deployments and the self-hosted job API server can answer it; Comfy Cloud cannot (it lists no jobs)';

function notFound(message: string, hint: string, key: string): WesError {
  return new WesError(message, { exitCode: ExitCode.NOT_FOUND, code: 'not_found', hint, origin: 'jobs', details: { idempotency_key: key } });
}

async function run(f: Factory, _args: unknown, opts: JobsFindOptions): Promise<number> {
  const key = opts.key;
  const search = await findJobByKey(f.client(JobsClient), key);
  if (search.kind === 'no-list') {
    throw notFound(
      `${search.reason}: a job made with Idempotency-Key ${key} cannot be looked up here`,
      `${WHO_CAN_ANSWER}. If the submit made a job, it runs on the service and keeps its outputs there (the service's own interface may show it); submitting again may run the workflow twice`,
      key,
    );
  }
  if (search.kind === 'absent') {
    throw notFound(
      search.proven
        ? `no job on the server carries Idempotency-Key ${key}: the submit made none`
        : `no job carrying Idempotency-Key ${key} is among the ${search.searched} newest on the server`,
      search.proven ? 'submitting again is safe' : 'the server lists only its newest jobs: it may be older than those, or the submit made none',
      key,
    );
  }
  const { job } = search.value;
  recordStatus(f, job, (line) => f.io.debug(line));
  if (f.io.json) f.io.printJson(job);
  else f.io.println(job.id);
  f.io.info(sanitizeLine(`job ${job.id} carries Idempotency-Key ${key} (${job.status}); follow it with: wes jobs watch ${job.id}`));
  return 0;
}

export default defineVerb({
  path: ['jobs', 'find'],
  args: {},
  options: jobsFindOptions(),
  help: {
    summary: 'Find the job a submit made by its Idempotency-Key (after a submit in doubt, exit 11)',
    after: [
      `
Every submit carries its key in the job's labels; the server's job list is searched for it: on a
serverless deployment filtered by that label, page after page; on the self-hosted job API server
its newest jobs. Comfy Cloud keeps no labels and lists no jobs: it cannot answer. Exit 0 found,
5 not found.

Examples:
  $ wes jobs find --key 3f0c9a52-6d1e-4b7a-9f00-1c2d3e4f5a6b
  $ wes jobs find --key "$KEY" --json | jq -r .status`,
    ],
  },
  run,
});
