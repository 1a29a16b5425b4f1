// wes jobs cancel <id> [--wait]: follows the job's cancel link (idempotent on the service); with
// --wait, follows the job until it has ended (a canceled job is success here). A cancel is a
// request: the job may go on (an engine that cannot stop it), so the job is read back and what it
// says is said, and --wait reports what happened.
import type { Factory } from '../../factory.js';
import { ExitCode } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { isTerminal, type Job } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { recordStatus } from '../../features/jobs/history.js';
import { JOB_ID_HELP, readJob } from '../../command-kit/jobs/read-job.js';
import { flag, needs, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { followDeclaration, jobWatch, watchJobOptions, type FollowFlags } from './options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface JobsCancelOptions extends FollowFlags {
  wait?: boolean;
}

const jobsCancelOptions = (): OptionsDeclaration<JobsCancelOptions> => ({
  wait: flag('--wait', 'then wait until the job has ended'),
  ...followDeclaration(),
});

/** `cancel` follows the job only with --wait. */
const jobsCancelRules = (): Array<OptionsRule<JobsCancelOptions>> => [needs('interval', 'wait'), needs('events', 'wait'), needs('cancelOnInterrupt', 'wait')];

const positional = { id: arg('<id>', undefined, { values: { kind: 'jobs' } }) };

/** What became of the job after the cancel, as read back: never "canceled" when it was not. */
function sayCanceled(f: Factory, job: Job): void {
  const { io } = f;
  const asked = `asked to cancel job ${job.id}`;
  if (job.status === 'canceled' || job.status === 'canceling') return io.info(sanitizeLine(`✓ ${asked}: it is ${job.status}`));
  if (isTerminal(job.status)) return io.notice(sanitizeLine(`${asked}, but it ended ${job.status} first`));
  io.notice(sanitizeLine(`${asked}, but it is still ${job.status}: this service may not stop it, and it may run on to the end; follow it with: wes jobs watch ${job.id}`));
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: JobsCancelOptions): Promise<number> {
  const { io } = f;
  const follow = watchJobOptions(opts);
  // Following is loaded only for --wait, while the cancel is on its way, as in jobs submit.
  const following = opts.wait ? Promise.all([import('../../features/jobs/watch.js'), import('./follow-view.js')]) : undefined;
  const client = f.client(JobsClient);
  const current = await readJob(f, client, args.id);
  // A prefix never cancels unseen: the whole id it picked is said first, whatever --quiet says.
  if (current.job.id !== args.id) io.notice(sanitizeLine(`${args.id} is job ${current.job.id} (from this machine's history)`));
  if (isTerminal(current.job.status)) {
    io.info(sanitizeLine(`job ${current.job.id} has already ended (${current.job.status}); nothing to cancel`));
    if (io.json) io.printJson(current.job);
    return 0;
  }
  const answered = await client.cancel(current);
  // The cancel's answer may say `canceling` for a job the server cannot stop (the reference server
  // in front of ComfyUI 0.3.64): the job read back says what is really so.
  const after = await client.refresh(answered);
  recordStatus(f, after.job, (line) => io.debug(line));
  sayCanceled(f, after.job);
  if (opts.wait) {
    const watch = { ...follow, canceledExit: ExitCode.OK, resumeVerb: ['cancel', '--wait'], afterCancel: true };
    const [{ watchJob }, { JobFollowView, showWatched }] = await following!;
    return showWatched(io, await watchJob(f, client, after, jobWatch(f, after.job.id, watch), await JobFollowView.watching(io, after.job, watch)), watch);
  }
  if (io.json) io.printJson(after.job);
  return 0;
}

export default defineVerb({
  path: ['jobs', 'cancel'],
  args: positional,
  options: jobsCancelOptions(),
  rules: jobsCancelRules(),
  help: {
    summary: 'Cancel a job (follows its cancel link); prints the Job with --json',
    after: [
      `
Examples:
  $ wes jobs cancel "$ID"
  $ wes jobs cancel "$ID" --wait`,
      `\n${JOB_ID_HELP}`,
    ],
  },
  run,
});
