// The deployment memory of a profile, loaded on first use: most commands never ask which job API
// deployment answers, and the cache's file reads stay out of their start-up.
import type { ProfileStore } from '../../config/store.js';
import type { JobApiSetting } from '../../config/keys.js';
import type { DeploymentMemory } from './deployment.js';
import type { UploadMemory } from './upload-memory.js';

/** What the factory gives a job API client: the setting that may pin the deployment, and the memory. */
export interface DeploymentAware {
  useDeployment(setting: JobApiSetting, memory: DeploymentMemory & Partial<UploadMemory>): void;
}

export function lazyDeploymentMemory(store: ProfileStore, profile: string): DeploymentMemory & UploadMemory {
  let cache: Promise<DeploymentMemory> | undefined;
  let uploads: Promise<UploadMemory> | undefined;
  const load = () => (cache ??= import('./deployment-cache.js').then((m) => new m.DeploymentCache(store, profile)));
  const loadUploads = () => (uploads ??= import('./upload-memory.js').then((m) => new m.UploadCache(store, profile)));
  return {
    read: async (baseUrl) => (await load()).read(baseUrl),
    write: async (baseUrl, deployment) => (await load()).write(baseUrl, deployment),
    recall: async (baseUrl, hash) => (await loadUploads()).recall(baseUrl, hash),
    remember: async (baseUrl, hash, id) => (await loadUploads()).remember(baseUrl, hash, id),
  };
}
