import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { jobsCancelOptions, jobsCancelRules, jobsDownloadOptions, jobsFindOptions, jobsListOptions, jobsSubmitOptions, jobsSubmitRules, jobsWatchOptions, jobsWatchRules } from './options.js';
import { jobsRerunOptions, jobsRerunRules, jobsWorkflowOptions, jobsWorkflowRules } from './rerun-options.js';

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

  const find = jobs
    .command('find')
    .description('Find the job a submit made by its Idempotency-Key (after a submit in doubt, exit 11)');
  typedCommand(find, jobsFindOptions(), action, () => import('./find.js'))
    .addHelpText('after', `
Every submit carries its key in the job's metadata label; the server's job list is searched for it
(servers without a job list cannot be searched). Exit 0 found, 5 not found.

Examples:
  $ wes jobs find --key 3f0c9a52-6d1e-4b7a-9f00-1c2d3e4f5a6b
  $ wes jobs find --key "$KEY" --json | jq -r .status`);

  typedCommand(jobs.command('get <id>'), noOptions(), action, () => import('./get.js'))
    .description('Show a job: status, progress, timings, metrics, outputs, error and log (--verbose adds the traceback)')
    .addHelpText('after', `
ID is a job id, @last / @N (the N-th latest job submitted from here), or the start of the id of
a job in the history (the 8 characters progress lines show). Piped, every line is key<TAB>value
(outputs as "output<TAB>name<TAB>type<TAB>size<TAB>node"); hints go to stderr.

Examples:
  $ wes jobs get 7d7c0b7e-2f1e-4a43-9a4c-2d1f0f5f8e11
  $ wes jobs get @last | grep ^output | cut -f2
  $ wes jobs get "$ID" --json | jq '.outputs[].name'`);

  const watch = jobs.command('watch <id>').description('Follow a job until it ends; exit 0 succeeded, 3 failed or expired, 10 canceled');
  typedCommand(watch, jobsWatchOptions(), action, () => import('./watch.js'), jobsWatchRules())
    .addHelpText('after', `
Live progress comes from the job's event stream; --json prints the polled Job objects, each with
the stream's latest progress in it. Ctrl-C leaves the job running and prints the command that
resumes the watch with the same flags.

Examples:
  $ wes jobs watch "$ID" --preview
  $ wes jobs watch @last --json > snapshots.ndjson
  $ wes jobs watch "$ID" --download out/ --timeout 600`);

  const workflow = jobs.command('workflow <id>').description('Print the workflow behind a job (or write it with -o); stderr says its format: api or save');
  typedCommand(workflow, jobsWorkflowOptions(), action, () => import('./workflow.js'), jobsWorkflowRules())
    .addHelpText('after', `
Examples:
  $ wes jobs workflow @last -o flow.json
  $ wes jobs workflow "$ID" --json | jq -r .format`);

  const rerun = jobs.command('rerun <id>').description('Submit the workflow behind a job again as a new job (--set changes inputs; as jobs submit)');
  typedCommand(rerun, jobsRerunOptions(), action, () => import('./rerun.js'), jobsRerunRules())
    .addHelpText('after', `
A workflow the service keeps in the editor's save format is converted to the API format first, as
\`jobs submit --convert\` does (--object-info / --refresh choose the node definitions).

Examples:
  $ wes jobs rerun @last --set 3.seed=43 --wait
  $ wes jobs rerun "$ID" --download out/`);

  const cancel = jobs.command('cancel <id>').description('Cancel a job (follows its cancel link); prints the Job with --json');
  typedCommand(cancel, jobsCancelOptions(), action, () => import('./cancel.js'), jobsCancelRules())
    .addHelpText('after', `
Examples:
  $ wes jobs cancel "$ID"
  $ wes jobs cancel "$ID" --wait`);

  typedCommand(jobs.command('logs <id>'), noOptions(), action, () => import('./logs.js'))
    .description('Print what the run printed (on deployments that keep logs)')
    .addHelpText('after', `
The log comes from the job itself (its "logs" object) or its logs link; stderr says when the
service kept only the tail of a longer log. --json: {job_id, logs, reason}.

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
