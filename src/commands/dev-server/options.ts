// The typed options of `wes dev-server`, declared once (see src/commands/typed-options.ts).
import type { DeploymentKind, EngineVersion } from '../../dev-server/contract.js';
import { choice, flag, nonEmpty, valueOption, wholeNumberIn, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';

const DEPLOYMENTS = ['cloud', 'serverless', 'self-hosted'] as const satisfies readonly DeploymentKind[];
/** Listed here, not imported from the dev-server: every command reads these options, none should load the server's modules. */
const ENGINE_VERSIONS = ['0.3.18', '0.3.64'] as const satisfies readonly EngineVersion[];

export interface DevServerRunOptions {
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
  retention: number;
  stepMs: number;
  slots: number;
  catalogSize: number;
  faults?: boolean;
  quietLog?: boolean;
}

export const devServerOptions = (): OptionsDeclaration<DevServerRunOptions> => ({
  host: valueOption('--host <host>', 'address to listen on', nonEmpty).default('127.0.0.1'),
  port: valueOption('--port <port>', 'port (0 picks a free one and prints it)', wholeNumberIn(0, 65535)).default(8188),
  surface: choice('--surface <deployment>', 'the deployment to imitate: hosted cloud, a serverless deployment (--deployment names its id), or self-hosted', DEPLOYMENTS).default('cloud' as const),
  token: valueOption('--token <token>', 'self-hosted: require this static bearer token', nonEmpty),
  engineOnly: flag('--engine-only', 'self-hosted: serve only what a ComfyUI engine serves (legacy v1 only; no jobs API, no models API)'),
  engineVersion: choice('--engine-version <release>', 'self-hosted: the ComfyUI release whose v1 answers to imitate', ENGINE_VERSIONS).default('0.3.18' as const),
  jobsPort: valueOption('--jobs-port <port>', 'self-hosted: serve the job API v2 alone on this port (the reference server uses 8189; 0 picks a free one), the main port then serves only the engine', wholeNumberIn(0, 65535)),
  jobList: choice('--job-list <on|off>', 'serve the job list GET /api/v2/jobs (default: on for self-hosted, off otherwise)', ['on', 'off'] as const),
  retention: valueOption('--retention <seconds>', 'job retention before jobs expire', wholeNumberIn(1)).default(3600),
  stepMs: valueOption('--step-ms <ms>', 'time per sampler step', wholeNumberIn(0)).default(40),
  slots: valueOption('--slots <n>', 'jobs running in parallel', wholeNumberIn(1)).default(1),
  catalogSize: valueOption('--catalog-size <n>', 'number of models in the router catalog', wholeNumberIn(1)).default(60),
  faults: flag('--faults', 'enable the POST /__dev/faults control route (loopback only)'),
  quietLog: flag('--quiet-log', 'do not log each request on stderr'),
});

/** What only the self-hosted imitation has, refused for the others instead of ignored. */
const selfHostedOnly = (key: 'token' | 'engineOnly' | 'jobsPort' | 'engineVersion'): OptionsRule<DevServerRunOptions> => ({ opts, given, flag }) =>
  given(key) && opts.surface !== 'self-hosted' ? `${flag(key)} applies to --surface self-hosted only (this is --surface ${opts.surface})` : undefined;

/** --engine-only serves no job API at all: a port of its own for it would be empty. */
const jobsPortNotEngineOnly: OptionsRule<DevServerRunOptions> = ({ given, flag }) =>
  given('jobsPort') && given('engineOnly') ? `${flag('jobsPort')} and ${flag('engineOnly')} cannot be combined (the engine-only server has no job API)` : undefined;

export const devServerRules: Array<OptionsRule<DevServerRunOptions>> = [selfHostedOnly('engineOnly'), selfHostedOnly('token'), selfHostedOnly('jobsPort'), selfHostedOnly('engineVersion'), jobsPortNotEngineOnly];
