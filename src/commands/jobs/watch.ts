// wes jobs watch <id>: follow a job until it ends; exit code by outcome.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { watchJob } from '../../features/jobs/watch.js';
import { JobFollowView, showWatched } from './follow-view.js';
import { JOB_ID_HELP, readJob } from '../../command-kit/jobs/read-job.js';
import { flag, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { checkFollowTargets, downloadDeclaration, downloadRules, followDeclaration, jobWatch, watchJobOptions, type DownloadFlags, type FollowFlags } from './options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

type JobsWatchOptions = FollowFlags & DownloadFlags & { preview?: boolean };

const jobsWatchOptions = (): OptionsDeclaration<JobsWatchOptions> => ({
  ...followDeclaration(),
  ...downloadDeclaration(),
  preview: flag('--preview', 'draw the latest preview picture under the progress line (kitty, iTerm2 or sixel terminals)'),
});

const jobsWatchRules = (): Array<OptionsRule<JobsWatchOptions>> => downloadRules<JobsWatchOptions>();

const positional = { id: arg('<id>', undefined, { values: { kind: 'jobs' } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: JobsWatchOptions): Promise<number> {
  const follow = watchJobOptions(opts);
  await checkFollowTargets(follow);
  const client = f.client(JobsClient);
  const start = await readJob(f, client, args.id);
  const watched = await watchJob(f, client, start, jobWatch(f, start.job.id, follow), await JobFollowView.watching(f.io, start.job, follow));
  return showWatched(f.io, watched, follow);
}

export default defineVerb({
  path: ['jobs', 'watch'],
  args: positional,
  options: jobsWatchOptions(),
  rules: jobsWatchRules(),
  help: {
    summary: 'Follow a job until it ends; exit 0 succeeded, 3 failed or expired, 10 canceled',
    after: [
      `
Live progress comes from the job's event stream; --json prints the polled Job objects, each with
the stream's latest progress in it. Ctrl-C leaves the job running and prints the command that
resumes the watch with the same flags.

Examples:
  $ wes jobs watch "$ID" --preview
  $ wes jobs watch @last --json > snapshots.ndjson
  $ wes jobs watch "$ID" --download out/ --timeout 600`,
      `\n${JOB_ID_HELP}`,
    ],
  },
  run,
});
