// wes dev-server: starts the local service and keeps it running until Ctrl-C or SIGTERM. The
// listening URL is the first line on stdout, so a script can start it with --port 0 and read it.
import type { Factory } from '../../factory.js';
import { networkInterfaces } from 'node:os';
import { ExitCode, WesError } from '../../errors.js';
import type { DeploymentKind, EngineVersion } from '../../dev-server/contract.js';
import { InvalidArgumentError } from 'commander';
import { choice, flag, nonEmpty, repeatableOption, valueOption, wholeNumberIn, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { defineVerb } from '../verb.js';
import { NAME_MODES, type NameMode } from '../../protocol/maker-names.js';

const DEPLOYMENTS = ['cloud', 'serverless', 'self-hosted'] as const satisfies readonly DeploymentKind[];
/** Listed here, not imported from the dev-server: reading the command line must not load the server's modules. */
const ENGINE_VERSIONS = ['0.3.18', '0.3.64'] as const satisfies readonly EngineVersion[];

interface DevServerRunOptions {
  host: string;
  port: number;
  /** --surface: the deployment imitated. */
  surface: DeploymentKind;
  token?: string;
  engineOnly?: boolean;
  engineVersion: EngineVersion;
  /** --jobs-port: self-hosted, the job API v2 on a port of its own (the main port is then the engine). */
  jobsPort?: number;
  /** --job-list on|off: serve GET /api/v2/jobs (default: on for self-hosted only). */
  jobList?: 'on' | 'off';
  /** --cancel effective|ignored: whether a job API v2 cancel stops the job (default: ignored on self-hosted only). */
  cancel?: 'effective' | 'ignored';
  retention?: number;
  stepMs: number;
  slots: number;
  catalogSize: number;
  faults?: boolean;
  quietLog?: boolean;
  /** --names: the maker's names on the wire (real ones by default; `service`, the interface's neutral ones). */
  names: NameMode;
  /** --remote-origin HOST=ORIGIN: a loopback origin standing in for a remote host (huggingface.co) in the asset library's downloads. */
  remoteOrigin?: Array<[string, string]>;
}

/** HOST=ORIGIN, the origin a loopback http(s) one: the dev-server reaches nothing else. */
function remoteOriginPair(raw: string): [string, string] {
  const at = raw.indexOf('=');
  const host = raw.slice(0, at).trim().toLowerCase();
  let origin: URL | undefined;
  try {
    origin = new URL(raw.slice(at + 1).trim());
  } catch {
    origin = undefined;
  }
  if (at <= 0 || !origin || !/^https?:$/.test(origin.protocol) || !['127.0.0.1', 'localhost', '[::1]'].includes(origin.hostname)) {
    throw new InvalidArgumentError('it must be HOST=ORIGIN with a loopback origin, e.g. huggingface.co=http://127.0.0.1:9000.');
  }
  return [host, origin.origin];
}

const devServerOptions = (): OptionsDeclaration<DevServerRunOptions> => ({
  host: valueOption('--host <host>', 'address to listen on', nonEmpty).default('127.0.0.1'),
  port: valueOption('--port <port>', 'port (0 picks a free one and prints it)', wholeNumberIn(0, 65535)).default(8188),
  surface: choice('--surface <deployment>', 'the deployment to imitate: hosted cloud, a serverless deployment (--deployment names its id), or self-hosted', DEPLOYMENTS).default('cloud' as const),
  token: valueOption('--token <token>', 'self-hosted: require this static bearer token', nonEmpty),
  engineOnly: flag('--engine-only', 'self-hosted: serve only what a ComfyUI engine serves (legacy v1 only; no jobs API, no models API)'),
  engineVersion: choice('--engine-version <release>', 'self-hosted: the ComfyUI release whose v1 answers to imitate', ENGINE_VERSIONS).default('0.3.18' as const),
  jobsPort: valueOption('--jobs-port <port>', 'self-hosted: serve the job API v2 alone on this port (the reference server uses 8189; 0 picks a free one), the main port then serves only the engine', wholeNumberIn(0, 65535)),
  jobList: choice('--job-list <on|off>', 'serve the job list GET /api/v2/jobs (default: on for self-hosted, off otherwise)', ['on', 'off'] as const),
  cancel: choice('--cancel <effective|ignored>', 'whether a job API v2 cancel stops the job (default: ignored on self-hosted, as the reference server in front of ComfyUI 0.3.64, where the job runs on; effective otherwise)', ['effective', 'ignored'] as const),
  retention: valueOption('--retention <seconds>', 'job retention before jobs expire (default: 86400 on self-hosted, as the reference server; 3600 otherwise)', wholeNumberIn(1)),
  stepMs: valueOption('--step-ms <ms>', 'time per sampler step', wholeNumberIn(0)).default(40),
  slots: valueOption('--slots <n>', 'jobs running in parallel', wholeNumberIn(1)).default(1),
  catalogSize: valueOption('--catalog-size <n>', 'number of models in the router catalog', wholeNumberIn(1)).default(60),
  faults: flag('--faults', 'enable the POST /__dev/faults control route (loopback only)'),
  names: choice('--names <mode>', "the maker's names on the wire: comfy (X-Comfy-* headers, extra_data.api_key_comfy_org, as real servers) or service (the interface's neutral X-Service-* headers; the partner key is taken under either name)", NAME_MODES).default('comfy' as const),
  remoteOrigin: repeatableOption('--remote-origin <host=origin>', 'the asset library\'s downloads from HOST are fetched from this loopback ORIGIN instead (the dev-server has no internet), e.g. huggingface.co=http://127.0.0.1:9000 (repeatable)', remoteOriginPair),
  quietLog: flag('--quiet-log', 'do not log each request on stderr'),
});

/** What only the self-hosted imitation has, refused for the others instead of ignored. */
const selfHostedOnly = (key: 'token' | 'engineOnly' | 'jobsPort' | 'engineVersion'): OptionsRule<DevServerRunOptions> => ({ opts, given, flag }) =>
  given(key) && opts.surface !== 'self-hosted' ? `${flag(key)} applies to --surface self-hosted only (this is --surface ${opts.surface})` : undefined;

/** --engine-only serves no job API at all: a port of its own for it would be empty. */
const jobsPortNotEngineOnly: OptionsRule<DevServerRunOptions> = ({ given, flag }) =>
  given('jobsPort') && given('engineOnly') ? `${flag('jobsPort')} and ${flag('engineOnly')} cannot be combined (the engine-only server has no job API)` : undefined;

const devServerRules: Array<OptionsRule<DevServerRunOptions>> = [selfHostedOnly('engineOnly'), selfHostedOnly('token'), selfHostedOnly('jobsPort'), selfHostedOnly('engineVersion'), jobsPortNotEngineOnly];

export const DEFAULT_DEV_API_KEY = 'wes-dev-key';

async function run(f: Factory, _args: unknown, opts: DevServerRunOptions): Promise<number> {
  const { host, port, surface: deployment } = opts;
  const apiKey = deployment === 'self-hosted' ? opts.token : (f.globals.apiKey ?? f.env.WES_DEV_API_KEY ?? DEFAULT_DEV_API_KEY);
  const { startDevServer } = await import('../../dev-server/index.js');
  const server = await startDevServer({
    host,
    port,
    deployment,
    apiKey,
    ...(opts.retention !== undefined ? { retentionMs: opts.retention * 1000 } : {}),
    stepMs: opts.stepMs,
    slots: opts.slots,
    catalogSize: opts.catalogSize,
    faults: opts.faults === true,
    names: opts.names,
    engineOnly: opts.engineOnly === true,
    engineVersion: opts.engineVersion,
    ...(opts.jobsPort !== undefined ? { jobsPort: opts.jobsPort } : {}),
    ...(opts.jobList !== undefined ? { jobList: opts.jobList === 'on' } : {}),
    ...(opts.cancel !== undefined ? { cancel: opts.cancel } : {}),
    ...(opts.remoteOrigin ? { remoteOrigins: Object.fromEntries(opts.remoteOrigin) } : {}),
    ...(f.globals.deployment ? { deploymentId: f.globals.deployment } : {}),
    log: opts.quietLog || f.io.quiet ? undefined : (line) => f.io.stderr.write(line + '\n'),
  }).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    // The port that was taken: --port's, or --jobs-port's (the job API's own listener).
    const taken = (err as { port?: number }).port;
    throw taken !== undefined && taken === opts.jobsPort && taken !== port ? portBusy(host, taken, '--jobs-port') : portBusy(host, port, '--port');
  });
  const base = server.jobsUrl ?? (deployment === 'serverless' ? `${server.url}/deployment/${server.state.options.deploymentId}` : server.url);
  f.io.println(server.url);
  const engineOnly = opts.engineOnly || server.jobsUrl !== undefined;
  const only = opts.engineOnly ? ' only (no jobs API, no models API)' : server.jobsUrl ? ' only' : '';
  const imitation = deployment === 'self-hosted' ? `, v1 as a ComfyUI ${opts.engineVersion} engine${only}` : '';
  f.io.info(`wes dev-server: ${deployment} deployment listening on ${server.url}${imitation} (signed URLs on ${server.signedOrigin})`);
  if (server.jobsUrl) f.io.info(`wes dev-server: the job API v2 alone on ${server.jobsUrl} (as the reference job API server in front of its engine)`);
  const remote = remoteOrigins(host, server.state.options.port);
  if (remote.length) f.io.info(`Listening on every interface: from other machines use ${remote.join(' or ')} (the URLs above work on this machine)`);
  f.io.info('Point wes at it from another terminal:');
  f.io.info(`  export WES_BASE_URL=${base}`);
  if (server.jobsUrl) f.io.info(`  export WES_ENGINE_URL=${server.url}`);
  if (apiKey) f.io.info(`  export WES_API_KEY=${apiKey}`);
  if (!apiKey) f.io.info(engineOnly ? '  (no credential needed)' : '  (no credential needed on this deployment; the models API still wants any bearer token: export WES_ROUTER_TOKEN=dev)');
  f.io.info('Stop with Ctrl-C.');
  await new Promise<void>((resolve) => {
    if (f.signal.aborted) return resolve();
    f.signal.addEventListener('abort', () => resolve(), { once: true });
    process.once('SIGTERM', () => resolve());
  });
  await server.close();
  f.io.info('wes dev-server: stopped');
  return 0;
}

function portBusy(host: string, port: number, flag: '--port' | '--jobs-port'): WesError {
  return new WesError(`port ${port} on ${host} (${flag}) is already in use (another wes dev-server?)`, {
    exitCode: ExitCode.ERROR,
    code: 'address_in_use',
    hint: `stop the other server, choose another port with ${flag} N, or use ${flag} 0 for a free one${flag === '--port' ? ' (printed on the first line)' : ''}`,
  });
}

/** For a wildcard listener, the http origins other machines can reach: one per external address. */
function remoteOrigins(host: string, port: number): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [];
  const origins: string[] = [];
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) {
      if (a.internal || (host === '0.0.0.0' && a.family !== 'IPv4') || (a.family === 'IPv6' && a.address.startsWith('fe80'))) continue;
      origins.push(`http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${port}`);
    }
  }
  return origins.length ? origins : [`http://<this machine's address>:${port}`];
}

export default defineVerb({
  path: ['dev-server'],
  args: {},
  options: devServerOptions(),
  rules: devServerRules,
  help: {
    summary: 'Run a local implementation of all three API families (jobs, models, legacy) for trying wes and for tests',
    group: 'Setup and tools:',
    after: [
      `
The cloud deployment needs an API key: --api-key, WES_DEV_API_KEY, or the printed default.

Examples:
  $ wes dev-server
  $ wes dev-server --port 0 --surface serverless --deployment demo
  $ wes dev-server --surface self-hosted --engine-only --step-ms 5`,
    ],
  },
  run,
});
