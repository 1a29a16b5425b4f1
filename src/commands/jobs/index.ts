import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { jobsCancelOptions, jobsCancelRules, jobsDownloadOptions, jobsListOptions, jobsSubmitOptions, jobsSubmitRules, jobsWatchOptions, jobsWatchRules } from './options.js';

export function registerJobs(program: Command, action: ActionFactory): void {
  const jobs = program
    .command('jobs')
    .description('Submit workflows, watch jobs, fetch their outputs and logs (job API v2)')
    .helpGroup('Job API v2:');

  const submit = jobs
    .command('submit [workflow]')
    .description('Submit an API-format workflow file (- reads standard input); prints the job id, or the Job with --json');
  typedCommand(submit, jobsSubmitOptions(), action, () => import('./submit.js'), jobsSubmitRules())
    .addHelpText('after', `
The partner-node key (--partner-key, WES_PARTNER_KEY) goes into extra_data.api_key_service_org.

Examples:
  $ wes jobs submit flow.json
  $ wes jobs submit flow.json --set 3.seed=42 --set 10.image=@cat.png --wait
  $ cat flow.json | wes jobs submit - --download out/
  $ wes jobs submit flow.json --json | jq -r .id

Batches: each line's Idempotency-Key is derived from the file, the line number and the line, so a
retried or resumed line never makes a second job. Exit 0 when every line succeeded, else the
gravest line's code (130 when interrupted; the results then say where to resume).
  $ wes jobs submit --batch jobs.jsonl --concurrency 8 --download out/ --results results.jsonl
  $ wes jobs submit --batch jobs.jsonl --resume results.jsonl --results results.jsonl
  $ wes jobs submit --batch jobs.jsonl --via gpu-a:8 --via gpu-b:4 --results results.jsonl

Flags of one mode are refused in the other (exit 2): --concurrency, --results, --resume and --via
need --batch; --idempotency-key, --convert and --cancel-on-interrupt go with one workflow only;
--interval and --no-events need --wait, --download or --batch; --clobber and --skip-existing need
--download.`);

  const list = jobs
    .command('list')
    .description('List the jobs submitted from this machine (this profile and base URL), newest first, with their last known status');
  typedCommand(list, jobsListOptions(), action, () => import('./list.js'))
    .addHelpText('after', `
The history lives in the state folder (WES_STATE_DIR, or $XDG_STATE_HOME/wes); every
\`wes jobs submit\` adds to it. Job commands take @last (or @N, the N-th latest) for an id.

Examples:
  $ wes jobs list --refresh
  $ wes jobs list --status failed --limit 5
  $ wes jobs list --json --jq '.[].id'
Then: wes jobs watch @last, wes jobs download @2 out/`);

  typedCommand(jobs.command('get <id>'), noOptions(), action, () => import('./get.js'))
    .description('Show a job: status, progress, timings, metrics, outputs and error (--verbose adds the traceback)')
    .addHelpText('after', `
Examples:
  $ wes jobs get 7d7c0b7e-2f1e-4a43-9a4c-2d1f0f5f8e11
  $ wes jobs get "$ID" --json | jq '.outputs[].name'`);

  const watch = jobs.command('watch <id>').description('Follow a job until it ends; exit 0 succeeded, 3 failed or expired, 10 canceled');
  typedCommand(watch, jobsWatchOptions(), action, () => import('./watch.js'), jobsWatchRules())
    .addHelpText('after', `
Examples:
  $ wes jobs watch "$ID" --preview
  $ wes jobs watch "$ID" --json > snapshots.ndjson
  $ wes jobs watch "$ID" --download out/ --timeout 600`);

  const cancel = jobs.command('cancel <id>').description('Cancel a job (follows its cancel link); prints the Job with --json');
  typedCommand(cancel, jobsCancelOptions(), action, () => import('./cancel.js'), jobsCancelRules())
    .addHelpText('after', `
Examples:
  $ wes jobs cancel "$ID"
  $ wes jobs cancel "$ID" --wait`);

  typedCommand(jobs.command('logs <id>'), noOptions(), action, () => import('./logs.js'))
    .description('Print what the run printed (on deployments that keep logs)')
    .addHelpText('after', `
Examples:
  $ wes jobs logs "$ID"
  $ wes jobs logs "$ID" > run.log`);

  const download = jobs
    .command('download <id> [dir]')
    .description('Save every output of a job into DIR (default ./<job-id>), blake3-checked, plus job.json');
  typedCommand(download, jobsDownloadOptions(), action, () => import('./download.js'))
    .addHelpText('after', `
Examples:
  $ wes jobs download "$ID" out/ --json | jq -r '.[].path'
  $ wes jobs download "$ID" out/ --skip-existing
  $ wes jobs download @last --show

An interrupted download keeps its NAME.part; running the same command again resumes it.`);

  // Every verb that takes a job id says what it takes besides one.
  for (const verb of jobs.commands) {
    if (verb.registeredArguments[0]?.name() === 'id') verb.addHelpText('after', `\n${JOB_ID_HELP}`);
  }
}

export const JOB_ID_HELP = 'ID: a job id, or @last (the latest job submitted from this machine for this profile and base URL), or @N (the N-th latest; @1 is @last); see `wes jobs list`.';
