// What every `models` command needs: the model id argument checked before any request, the
// router client (its routes pinned by router_api, else discovered and remembered per router URL),
// and the per-profile schema source.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { ModelsClient } from '../../clients/models/client.js';
import { composeModels, routerGeneration } from '../../compose/clients.js';
import { GenerationCache } from '../../clients/models/generation-cache.js';
import { ModelIdError, parseModelId, type ModelRef } from '../../protocol/model-ids.js';
import { SchemaCache } from '../../clients/models/schema-cache.js';
import { SchemaSource } from '../../clients/models/schema-source.js';
import type { RouterExplainer } from '../../clients/models/generation.js';

/** What a models command says of a router that is missing, or pinned to the other routes. */
function routerExplainer(f: Factory): RouterExplainer {
  return {
    noRouter: async (info) => (await import('./no-router.js')).explainNoRouter(f, info),
    pinnedHint: (needs) => `pass --router-api ${needs} (or auto), or change the setting: \`wes config set router_api auto\``,
  };
}

export function modelArg(arg: string | undefined): ModelRef {
  if (!arg) throw new UsageError('give a model id: provider/model', 'list them with `wes models list --all`');
  try {
    return parseModelId(arg);
  } catch (err) {
    if (err instanceof ModelIdError) throw new UsageError(err.message, 'model ids look like acme/chat-v2; list them with `wes models list --all`');
    throw err;
  }
}

/** The command's models client: its routes pinned by router_api, else discovered and remembered for the profile; `signal` overrides the command's own (a deadline). */
export function modelsClient(f: Factory, signal?: AbortSignal): ModelsClient {
  return f.client(ModelsClient, signal, (http) => {
    const s = f.settings();
    const memory = new GenerationCache(f.store(), s.profile);
    return composeModels(http, routerGeneration(s.routerUrl, s.routerApi, memory, routerExplainer(f)));
  });
}

export function schemaSource(f: Factory, client: ModelsClient = modelsClient(f)): SchemaSource {
  const settings = f.settings();
  return new SchemaSource(client, new SchemaCache(f.store(), settings.profile, settings.routerUrl));
}
