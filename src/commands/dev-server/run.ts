// wes dev-server: starts the local service and keeps it running until Ctrl-C or SIGTERM. The
// listening URL is the first line on stdout, so a script can start it with --port 0 and read it.
import type { Factory } from '../../factory.js';
import { networkInterfaces } from 'node:os';
import { ExitCode, WesError } from '../../errors.js';
import type { DevServerRunOptions } from './options.js';

export const DEFAULT_DEV_API_KEY = 'wes-dev-key';

export async function run(f: Factory, _args: string[], opts: DevServerRunOptions): Promise<number> {
  const { host, port, surface: deployment } = opts;
  const apiKey = deployment === 'self-hosted' ? opts.token : (f.globals.apiKey ?? f.env.WES_DEV_API_KEY ?? DEFAULT_DEV_API_KEY);
  const { startDevServer } = await import('../../dev-server/index.js');
  const server = await startDevServer({
    host,
    port,
    deployment,
    apiKey,
    retentionMs: opts.retention * 1000,
    stepMs: opts.stepMs,
    slots: opts.slots,
    catalogSize: opts.catalogSize,
    faults: opts.faults === true,
    engineOnly: opts.engineOnly === true,
    ...(opts.jobsPort !== undefined ? { jobsPort: opts.jobsPort } : {}),
    ...(opts.jobList !== undefined ? { jobList: opts.jobList === 'on' } : {}),
    ...(f.globals.deployment ? { deploymentId: f.globals.deployment } : {}),
    log: opts.quietLog || f.io.quiet ? undefined : (line) => f.io.stderr.write(line + '\n'),
  }).catch((err: unknown) => {
    throw (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? portBusy(host, port) : err;
  });
  const base = server.jobsUrl ?? (deployment === 'serverless' ? `${server.url}/deployment/${server.state.options.deploymentId}` : server.url);
  f.io.println(server.url);
  const engineOnly = opts.engineOnly || server.jobsUrl !== undefined;
  const only = opts.engineOnly ? ' only (no jobs API, no models API)' : server.jobsUrl ? ' only' : '';
  const imitation = deployment === 'self-hosted' ? `, v1 as a ComfyUI engine${only}` : '';
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

function portBusy(host: string, port: number): WesError {
  return new WesError(`port ${port} on ${host} is already in use (another wes dev-server?)`, {
    exitCode: ExitCode.ERROR,
    code: 'address_in_use',
    hint: `stop the other server, choose another port with --port N, or use --port 0 for a free one (printed on the first line)`,
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
