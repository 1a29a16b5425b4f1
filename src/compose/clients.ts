// The composition root, its clients half: the three families' clients on one HttpClient
// (http.ts), the models client with its router routes pinned by router_api or discovered.
import type { HttpClient } from '../http/client.js';
import { JobsClient } from '../clients/jobs/client.js';
import { ModelsClient } from '../clients/models/client.js';
import { LegacyClient } from '../clients/legacy/client.js';
import { RouterGeneration, type GenerationMemory, type RouterExplainer } from '../clients/models/generation.js';
import type { RouterApiSetting } from '../config/keys.js';

/** The router's routes: pinned by `routerApi`, else discovered (and remembered in `memory` when given). */
export function routerGeneration(routerUrl: string, routerApi: RouterApiSetting, memory?: GenerationMemory, explain?: RouterExplainer): RouterGeneration {
  return new RouterGeneration(routerUrl, routerApi, memory ?? null, explain);
}

export function composeModels(http: HttpClient, generation: RouterGeneration): ModelsClient {
  return new ModelsClient(http, generation);
}

export interface FamilyClients {
  jobs: JobsClient;
  models: ModelsClient;
  legacy: LegacyClient;
}

/** The three families' clients on one HttpClient. */
export function composeClients(http: HttpClient, routerApi: RouterApiSetting): FamilyClients {
  return { jobs: new JobsClient(http), models: composeModels(http, routerGeneration(http.baseUrlFor('models'), routerApi)), legacy: new LegacyClient(http) };
}
