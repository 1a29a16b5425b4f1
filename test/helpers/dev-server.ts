// Starts an in-process dev server on a free port with fast timings, and closes it after the test file.
import { afterAll, beforeAll } from 'vitest';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { startDevServer } from '../../src/dev-server/index.js';

export const FAST: DevServerOptions = { port: 0, stepMs: 5, hashDelayMs: 0, keepaliveMs: 200 };

export function startFast(options: DevServerOptions = {}): Promise<DevServerHandle> {
  return startDevServer({ ...FAST, ...options });
}

/** Registers beforeAll/afterAll around a server; read `.server` inside tests. */
export function useDevServer(options: DevServerOptions = {}): { server: DevServerHandle } {
  const holder = {} as { server: DevServerHandle };
  beforeAll(async () => {
    holder.server = await startFast(options);
  });
  afterAll(async () => {
    await holder.server?.close();
  });
  return holder;
}

/** Authorization headers for the server's surface A (Bearer) and C (X-API-Key). */
export function v2Auth(server: DevServerHandle): Record<string, string> {
  return server.apiKey ? { authorization: `Bearer ${server.apiKey}` } : {};
}
export function v1Auth(server: DevServerHandle): Record<string, string> {
  return server.apiKey ? { 'x-api-key': server.apiKey } : {};
}

/** Scripts faults on a server started with `faults: true`. */
export async function addFaults(server: DevServerHandle, specs: unknown): Promise<void> {
  const res = await fetch(`${server.url}/__dev/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(specs),
  });
  if (res.status !== 201) throw new Error(`fault setup failed: ${res.status} ${await res.text()}`);
}

export async function requestCounts(server: DevServerHandle): Promise<Record<string, number>> {
  return (await (await fetch(`${server.url}/__dev/requests`)).json()) as Record<string, number>;
}
