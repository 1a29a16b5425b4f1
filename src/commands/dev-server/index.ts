import { Option, type Command } from 'commander';
import type { ActionFactory } from '../types.js';

export function registerDevServer(program: Command, action: ActionFactory): void {
  program
    .command('dev-server')
    .description('Run a local implementation of all three API families (jobs, models, legacy) for trying wes and for tests')
    .helpGroup('Setup and tools:')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one and prints it)', '8188')
    .addOption(new Option('--surface <deployment>', 'the deployment to imitate: hosted cloud, a serverless deployment (--deployment names its id), or self-hosted').choices(['cloud', 'serverless', 'self-hosted']).default('cloud'))
    .option('--token <token>', 'self-hosted: require this static bearer token')
    .option('--engine-only', 'self-hosted: serve only what a ComfyUI engine serves (legacy v1 only; no jobs API, no models API)')
    .option('--retention <seconds>', 'job retention before jobs expire', '3600')
    .option('--step-ms <ms>', 'time per sampler step', '40')
    .option('--slots <n>', 'jobs running in parallel', '1')
    .option('--catalog-size <n>', 'number of models in the router catalog', '60')
    .option('--faults', 'enable the POST /__dev/faults control route (loopback only)')
    .option('--quiet-log', 'do not log each request on stderr')
    .addHelpText(
      'after',
      `
The cloud deployment needs an API key: --api-key, WES_DEV_API_KEY, or the printed default.

Examples:
  $ wes dev-server
  $ wes dev-server --port 0 --surface serverless --deployment demo
  $ wes dev-server --surface self-hosted --engine-only --step-ms 5`,
    )
    .action(action(() => import('./run.js')));
}
