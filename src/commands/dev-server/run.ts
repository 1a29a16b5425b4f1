// wes dev-server: starts the local service and keeps it running until Ctrl-C or SIGTERM. The
// listening URL is the first line on stdout, so a script can start it with --port 0 and read it.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import type { SurfaceKind } from '../../dev-server/contract.js';

export const DEFAULT_DEV_API_KEY = 'wes-dev-key';

function intOption(name: string, value: unknown, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, got ${String(value)}`);
  return n;
}

export async function run(f: Factory, _args: string[], opts: Record<string, unknown>): Promise<number> {
  const surface = opts.surface as SurfaceKind;
  const port = intOption('port', opts.port, 0);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const apiKey = surface === 'self-hosted' ? (opts.token as string | undefined) : (f.globals.apiKey ?? f.env.WES_DEV_API_KEY ?? DEFAULT_DEV_API_KEY);
  const { startDevServer } = await import('../../dev-server/index.js');
  const server = await startDevServer({
    host: String(opts.host),
    port,
    surface,
    apiKey,
    retentionMs: intOption('retention', opts.retention, 1) * 1000,
    stepMs: intOption('step-ms', opts.stepMs, 0),
    slots: intOption('slots', opts.slots, 1),
    catalogSize: intOption('catalog-size', opts.catalogSize, 1),
    faults: Boolean(opts.faults),
    ...(f.globals.deployment ? { deploymentId: f.globals.deployment } : {}),
    log: opts.quietLog || f.io.quiet ? undefined : (line) => f.io.stderr.write(line + '\n'),
  });
  const base = surface === 'serverless' ? `${server.url}/deployment/${server.state.options.deploymentId}` : server.url;
  f.io.println(server.url);
  f.io.info(`wes dev-server: ${surface} surface listening on ${server.url} (signed URLs on ${server.signedOrigin})`);
  f.io.info('Point wes at it from another terminal:');
  f.io.info(`  export WES_BASE_URL=${base}`);
  if (apiKey) f.io.info(`  export WES_API_KEY=${apiKey}`);
  if (!apiKey) f.io.info('  (no credential needed on this surface; the router still wants any bearer token: export WES_ROUTER_TOKEN=dev)');
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
