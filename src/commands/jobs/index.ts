import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { collect, existingFileFlags } from '../option-values.js';
import { convertOptions } from '../workflows/options.js';


/** Flags of every command that waits for a job. */
function followFlags(cmd: Command, withDownload: boolean): Command {
  cmd
    .option('--interval <seconds>', 'seconds between polls of the job (default 1)')
    .option('--no-events', 'poll only; do not listen on the job\'s event stream')
    .option('--cancel-on-interrupt', 'on Ctrl-C, cancel the job before exiting (default: leave it running)');
  if (withDownload) existingFileFlags(cmd.option('--download <dir>', 'when the job succeeds, save its outputs into DIR'));
  return cmd;
}

export function registerJobs(program: Command, action: ActionFactory): void {
  const jobs = program
    .command('jobs')
    .description('Submit workflows, watch jobs, fetch their outputs and logs (job API v2)')
    .helpGroup('Job API v2:');

  followFlags(
    convertOptions(jobs
      .command('submit [workflow]'))
      .description('Submit an API-format workflow file (- reads standard input); prints the job id, or the Job with --json')
      .option('--set <node.input=value>', 'set an input: JSON when it parses, else a string; @PATH uploads a file and puts its asset id (repeatable)', collect)
      .option('--idempotency-key <key>', 'the Idempotency-Key to send (default: a new random one, reused on retries)')
      .option('--wait', 'then watch the job until it ends; exit code by outcome')
      .option('--batch <file.jsonl>', 'submit one job per line (a workflow, or {"workflow": ..., "set": {"NODE.INPUT": value}}), watch them all; NDJSON results in input order')
      .option('--concurrency <n>', 'with --batch: jobs in flight at once (default 4)')
      .option('--results <file>', 'with --batch: write the results to FILE instead of stdout (journaled in FILE.journal while running)')
      .option('--resume <results.jsonl>', 'with --batch: skip the lines an earlier run (or its journal, after a crash) shows succeeded')
      .option('--via <profile[:n]|url[,n]>', 'with --batch: spread the lines over this endpoint too, n in flight there (repeatable)', collect),
    true,
  )
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
  $ wes jobs submit --batch jobs.jsonl --via gpu-a:8 --via gpu-b:4 --results results.jsonl`)
    .action(action(() => import('./submit.js')));

  jobs
    .command('list')
    .description('List the jobs submitted from this machine (this profile and base URL), newest first, with their last known status')
    .option('--refresh', 'ask the service for the current status of the unfinished ones first')
    .option('--status <status>', 'only jobs with this status (queued, running, succeeded, failed, canceled, expired, gone)')
    .option('--limit <n>', 'at most N jobs (default 20)')
    .addHelpText('after', `
The history lives in the state folder (WES_STATE_DIR, or $XDG_STATE_HOME/wes); every
\`wes jobs submit\` adds to it. Job commands take @last (or @N, the N-th latest) for an id.

Examples:
  $ wes jobs list --refresh
  $ wes jobs list --status failed --limit 5
  $ wes jobs list --json --jq '.[].id'
Then: wes jobs watch @last, wes jobs download @2 out/`)
    .action(action(() => import('./list.js')));

  jobs
    .command('get <id>')
    .description('Show a job: status, progress, timings, metrics, outputs and error (--verbose adds the traceback)')
    .addHelpText('after', `
Examples:
  $ wes jobs get 7d7c0b7e-2f1e-4a43-9a4c-2d1f0f5f8e11
  $ wes jobs get "$ID" --json | jq '.outputs[].name'`)
    .action(action(() => import('./get.js')));

  followFlags(
    jobs.command('watch <id>').description('Follow a job until it ends; exit 0 succeeded, 3 failed or expired, 10 canceled'),
    true,
  )
    .addHelpText('after', `
Examples:
  $ wes jobs watch "$ID"
  $ wes jobs watch "$ID" --json > snapshots.ndjson
  $ wes jobs watch "$ID" --download out/ --timeout 600`)
    .action(action(() => import('./watch.js')));

  followFlags(
    jobs
      .command('cancel <id>')
      .description('Cancel a job (follows its cancel link); prints the Job with --json')
      .option('--wait', 'then wait until the job has ended'),
    false,
  )
    .addHelpText('after', `
Examples:
  $ wes jobs cancel "$ID"
  $ wes jobs cancel "$ID" --wait`)
    .action(action(() => import('./cancel.js')));

  jobs
    .command('logs <id>')
    .description('Print what the run printed (on surfaces that keep logs)')
    .addHelpText('after', `
Examples:
  $ wes jobs logs "$ID"
  $ wes jobs logs "$ID" > run.log`)
    .action(action(() => import('./logs.js')));

  existingFileFlags(
    jobs
      .command('download <id> [dir]')
      .description('Save every output of a job into DIR (default ./<job-id>), blake3-checked, plus job.json'),
  )
    .addHelpText('after', `
Examples:
  $ wes jobs download "$ID"
  $ wes jobs download "$ID" out/ --json | jq -r '.[].path'
  $ wes jobs download "$ID" out/ --skip-existing

An interrupted download keeps its NAME.part; running the same command again resumes it.`)
    .action(action(() => import('./download.js')));
}
