// The least CLI over the undici floor (undici.mjs): commander, the project's argument parser, with a
// program of one group and one verb, `jobs get <id> --json`, the base URL from WES_BASE_URL, then
// the same GET. Everything else wes does (its command tree and help, settings and profiles, the
// HTTP layer's retries and decoding, the history, the rendering) is left out.
import { Command } from 'commander';
import { printJob } from './get-through-undici.mjs';

const program = new Command('wes').option('--base-url <url>', 'the job API');
program
  .command('jobs')
  .description('jobs of the job API')
  .command('get')
  .description('one job')
  .argument('<id>', 'the job')
  .option('--json', 'the job as JSON')
  .action((id) => printJob(new URL(`/api/v2/jobs/${encodeURIComponent(id)}`, program.opts().baseUrl ?? process.env.WES_BASE_URL)));
program.parse();
