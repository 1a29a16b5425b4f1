// wes jobs get <id>: the authoritative view of a job; --json prints the service's Job unchanged.
// Human output is the record only (stdout); how to see more goes to stderr, as gh does. The view
// (tables, colour) loads only when it is printed: scripts call `--json` in loops.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { JOB_ID_HELP, readJob } from '../../command-kit/jobs/read-job.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { id: arg('<id>', undefined, { values: { kind: 'jobs' } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const { job } = await readJob(f, f.client(JobsClient), args.id);
  if (f.io.json) {
    f.io.printJson(job);
    return 0;
  }
  const { renderJob } = await import('./job-view.js');
  const view = renderJob(f.io, job, f.io.verbose);
  f.io.println(view.text);
  for (const hint of view.hints) f.io.info(hint);
  return 0;
}

export default defineVerb({
  path: ['jobs', 'get'],
  args: positional,
  options: noOptions(),
  help: {
    summary: 'Show a job: status, progress, timings, metrics, outputs, error and log (--verbose adds the traceback)',
    after: [
      `
ID is a job id, @last / @N (the N-th latest job submitted from here), or the start of the id of
a job in the history (the 8 characters progress lines show). Piped, every line is key<TAB>value
(outputs as "output<TAB>name<TAB>type<TAB>size<TAB>node"); hints go to stderr.

Examples:
  $ wes jobs get 7d7c0b7e-2f1e-4a43-9a4c-2d1f0f5f8e11
  $ wes jobs get @last | grep ^output | cut -f2
  $ wes jobs get "$ID" --json | jq '.outputs[].name'`,
      `\n${JOB_ID_HELP}`,
    ],
  },
  run,
});
