// wes jobs download <id> [dir]: every output of the job into DIR (default ./<job-id>), plus job.json.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { isTerminal } from '../../protocol/jobs.js';
import { safeFileName } from '../../files/safe-name.js';
import { existingPolicy } from '../../files/existing.js';
import { checkFolderTarget } from '../../files/targets.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { saveJobOutputs } from '../../features/transfers/job-outputs.js';
import { transferReporterOn } from '../reporters.js';
import { showSaved } from './saved-view.js';
import { JOB_ID_HELP, readJob } from '../../command-kit/jobs/read-job.js';
import { existingFileOptions, type ExistingFileOptions } from '../option-values.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

type JobsDownloadOptions = ExistingFileOptions & { show?: boolean };

const jobsDownloadOptions = (): OptionsDeclaration<JobsDownloadOptions> => ({
  ...existingFileOptions(),
  show: flag('--show', 'show each saved picture under its path (kitty, iTerm2 or sixel terminals)'),
});

const positional = { id: arg('<id>', undefined, { values: { kind: 'jobs' } }), dir: arg('[dir]') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: JobsDownloadOptions): Promise<number> {
  const existing = existingPolicy(opts);
  if (args.dir !== undefined) await checkFolderTarget(args.dir, 'the folder');
  const client = f.client(JobsClient);
  const current = await readJob(f, client, args.id);
  const dir = args.dir ?? safeFileName(current.job.id, 'job');
  if (args.dir === undefined) await checkFolderTarget(dir, 'the folder');
  if (!isTerminal(current.job.status)) {
    f.io.info(sanitizeLine(`note: job ${current.job.id} is still ${current.job.status}; saving the outputs committed so far`));
  }
  const result = await saveJobOutputs(f, client, current, dir, existing, transferReporterOn(f.io));
  await showSaved(f.io, current.job, result, { toStdout: true, show: opts.show === true });
  return 0;
}

export default defineVerb({
  path: ['jobs', 'download'],
  args: positional,
  options: jobsDownloadOptions(),
  help: {
    summary: 'Save every output of a job into DIR (default ./<job-id>), blake3-checked, plus job.json',
    after: [
      `
Examples:
  $ wes jobs download "$ID" out/ --json | jq -r '.[].path'
  $ wes jobs download "$ID" out/ --skip-existing
  $ wes jobs download @last --show

An interrupted download keeps its NAME.part; running the same command again resumes it.`,
      `\n${JOB_ID_HELP}`,
    ],
  },
  run,
});
