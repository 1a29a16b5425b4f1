// The router catalog: the runnable dev models plus generated partner models, up to the configured
// size, in an order that is reshuffled on every rebuild (so a cursor from an older build is
// meaningless and is refused).
import { MODEL_ID_MAX, parseModelId } from '../../protocol/model-ids.js';
import type { RouterModelListEntry } from '../../protocol/models.js';
import { RUNNABLE_MODELS, type ModelBehaviour } from './stock/index.js';
import { generatedBehaviour } from './stock/generated.js';
import { seededRandom } from '../engine/prng.js';

export const CHARGE_POLICIES = ['always', 'never', 'when_provider_charges'] as const;

/** Providers of the generated models; `prime` is the one `limited-` credentials are not entitled to. */
export const GENERATED_PROVIDERS = ['acme', 'pixel.labs', 'sonic_wave', 'vector-forge', 'prime', 'lumen.ai'] as const;
export const RESTRICTED_PROVIDER = 'prime';

const FAMILIES: Record<(typeof GENERATED_PROVIDERS)[number], readonly string[]> = {
  acme: ['chat', 'instruct', 'summarize'],
  'pixel.labs': ['flux', 'paint', 'sketch_xl'],
  sonic_wave: ['voice', 'tts'],
  'vector-forge': ['embed', 'rerank'],
  prime: ['ultra', 'vision'],
  'lumen.ai': ['render', 'photo.real'],
};

export interface CatalogModel {
  entry: RouterModelListEntry;
  behaviour: ModelBehaviour;
  /** Whether the detail carries `input_schema_url` (a schema has been published for the model). */
  schemaPublished: boolean;
}

export interface Catalog {
  generation: number;
  /** Models in walk order for this generation. */
  order: CatalogModel[];
  byId: Map<string, CatalogModel>;
}


function generatedModel(index: number): CatalogModel {
  const provider = GENERATED_PROVIDERS[index % GENERATED_PROVIDERS.length]!;
  const families = FAMILIES[provider];
  const family = families[Math.floor(index / GENERATED_PROVIDERS.length) % families.length]!;
  const model = `${family}-v${1 + (index % 4)}.${index % 10}-${index.toString(36)}`;
  const ref = parseModelId(`${provider}/${model}`); // proves the generated id is valid
  const policy = CHARGE_POLICIES[index % CHARGE_POLICIES.length]!;
  const kind = provider === 'pixel.labs' || provider === 'lumen.ai' ? 'image' : 'text';
  return {
    entry: { id: ref.id, provider, model, billing: { charges_on_policy_rejection: policy } },
    behaviour: generatedBehaviour(ref.id, kind, policy),
    schemaPublished: index % 9 !== 4,
  };
}

export function buildCatalog(size: number, generation: number): Catalog {
  const models: CatalogModel[] = RUNNABLE_MODELS.map((behaviour) => ({
    entry: { id: behaviour.id, ...splitId(behaviour.id), billing: { charges_on_policy_rejection: behaviour.chargesOnPolicyRejection } },
    behaviour,
    schemaPublished: true,
  }));
  for (let i = 0; models.length < size; i++) models.push(generatedModel(i));
  const random = seededRandom(0x9e3779b9 ^ generation);
  for (let i = models.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [models[i], models[j]] = [models[j]!, models[i]!];
  }
  const byId = new Map(models.map((m) => [m.entry.id, m]));
  return { generation, order: models, byId };
}

function splitId(id: string): { provider: string; model: string } {
  const ref = parseModelId(id);
  if (ref.id.length > MODEL_ID_MAX) throw new Error(`catalog id too long: ${id}`);
  return { provider: ref.provider, model: ref.model };
}
