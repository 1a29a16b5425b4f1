// The typed options of `wes dev-server`, declared once (see src/commands/typed-options.ts).
import { ENGINE_VERSIONS, type DeploymentKind, type EngineVersion } from '../../dev-server/contract.js';
import { choice, flag, nonEmpty, valueOption, wholeNumberIn, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';

const DEPLOYMENTS = ['cloud', 'serverless', 'self-hosted'] as const satisfies readonly DeploymentKind[];

export interface DevServerRunOptions {
  host: string;
  port: number;
  /** --surface: the deployment imitated. */
  surface: DeploymentKind;
  token?: string;
  engineOnly?: boolean;
  engineVersion: EngineVersion;
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
  retention: valueOption('--retention <seconds>', 'job retention before jobs expire', wholeNumberIn(1)).default(3600),
  stepMs: valueOption('--step-ms <ms>', 'time per sampler step', wholeNumberIn(0)).default(40),
  slots: valueOption('--slots <n>', 'jobs running in parallel', wholeNumberIn(1)).default(1),
  catalogSize: valueOption('--catalog-size <n>', 'number of models in the router catalog', wholeNumberIn(1)).default(60),
  faults: flag('--faults', 'enable the POST /__dev/faults control route (loopback only)'),
  quietLog: flag('--quiet-log', 'do not log each request on stderr'),
});

/** What only the self-hosted imitation has, refused for the others instead of ignored. */
const selfHostedOnly = (key: 'token' | 'engineOnly' | 'engineVersion'): OptionsRule<DevServerRunOptions> => ({ opts, given, flag }) =>
  given(key) && opts.surface !== 'self-hosted' ? `${flag(key)} applies to --surface self-hosted only (this is --surface ${opts.surface})` : undefined;

export const devServerRules: Array<OptionsRule<DevServerRunOptions>> = [selfHostedOnly('engineOnly'), selfHostedOnly('token'), selfHostedOnly('engineVersion')];
