// `wes dev-server`: a local implementation of the three API families on loopback. startDevServer
// binds the main listener (the jobs, models and legacy APIs and the /ws WebSocket), the signed-URL
// listener and, for a self-hosted deployment with `jobsPort`, a listener serving only the job API
// v2 (as the reference job API server does in front of its engine; the main one is then the engine).
import { createServer } from 'node:http';
import type { DevServerHandle, DevServerOptions, DevState } from './contract.js';
import { FileBlobStore } from './assets/blob-store.js';
import { createMainListener } from './core/dispatch.js';
import { resolveOptions } from './core/options.js';
import { closeServer, listen, originOf, trackSockets } from './core/sockets.js';
import { DevEngine } from './engine/engine.js';
import { ScriptedFaults } from './faults/table.js';
import { handleJobsApi } from './jobs/index.js';
import { attachLegacyWebSocket, handleLegacy } from './legacy/index.js';
import { closeModels, handleModels } from './models/index.js';
import { closeLibraryDownloads } from './library/from-url.js';
import { attachEngineHistory, handleSelfHosted } from './self-hosted/index.js';
import { createSignedListener } from './signed/listener.js';
import { HmacUrlSigner } from './signed/signer.js';

export type { DevServerHandle, DevServerOptions, DevState } from './contract.js';
export { checkCredential } from './core/auth.js';
export { DEFAULT_API_KEY, DEFAULT_FORBIDDEN_TOKEN } from './core/options.js';

export async function startDevServer(given: DevServerOptions = {}): Promise<DevServerHandle> {
  const options = resolveOptions(given);
  const blobs = await FileBlobStore.create();
  const signer = new HmacUrlSigner(options.urlTtlMs);
  const state = { options, blobs, signer, faults: new ScriptedFaults(), requestCounts: new Map() } as Omit<DevState, 'engine'> as DevState;
  const engine = new DevEngine(state);
  state.engine = engine;

  // The self-hosted deployment answers v1 as a ComfyUI engine does; the others as the hosted cloud API.
  const selfHosted = options.deployment === 'self-hosted';
  const v1 = selfHosted ? handleSelfHosted : handleLegacy;
  const handlers = [handleJobsApi, handleModels, v1];
  const jobsPort = selfHosted ? options.jobsPort : undefined;
  const mainRole = selfHosted && (options.engineOnly || jobsPort !== undefined) ? 'engine' : 'all';
  const main = createServer(createMainListener(state, handlers, mainRole));
  const signed = createServer(createSignedListener(state, signer));
  const jobs = jobsPort !== undefined ? createServer(createMainListener(state, handlers, 'jobs')) : null;
  const servers = [main, signed, ...(jobs ? [jobs] : [])];
  const drops = servers.map(trackSockets);
  let jobsUrl: string | undefined;
  try {
    options.port = await listen(main, options.port, options.host);
    signer.origin = originOf(options.host, await listen(signed, 0, options.host));
    if (jobs) {
      options.jobsPort = await listen(jobs, jobsPort!, options.host);
      jobsUrl = originOf(options.host, options.jobsPort);
    }
  } catch (err) {
    for (const server of servers) server.close();
    engine.close();
    await blobs.close();
    throw err;
  }
  const legacySockets = attachLegacyWebSocket(main, state);
  const history = options.deployment === 'self-hosted' ? attachEngineHistory(state) : null;

  let closing: Promise<void> | undefined;
  return {
    url: originOf(options.host, options.port),
    jobsUrl,
    signedOrigin: signer.origin,
    port: options.port,
    apiKey: options.apiKey,
    state,
    close() {
      closing ??= (async () => {
        legacySockets.close();
        history?.close();
        engine.close();
        closeModels(state);
        closeLibraryDownloads(state);
        const closed = Promise.all(servers.map(closeServer));
        for (const drop of drops) drop();
        await closed;
        await blobs.close();
      })();
      return closing;
    },
  };
}
