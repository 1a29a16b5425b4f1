// The saved-workflows client of a command, on the v1 base URL (the engine, or the cloud's v1 API).
import type { Factory } from '../../factory.js';
import { SavedWorkflowsClient } from '../../clients/legacy/saved-workflows.js';

export function savedWorkflows(f: Factory): SavedWorkflowsClient {
  return f.client(SavedWorkflowsClient);
}
