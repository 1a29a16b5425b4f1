// The published router's provider controls on the synchronous run route (`/v2` only), as its
// contract describes them (comfy-typescript-sdk spec/router-openapi.yaml, SDK 0.4.0):
// - `model_provider`: an alternate provider to serve the model. `default`, `comfy` and `comfyui`
//   name the native dispatch; a registered provider that does not serve this model is 404
//   `model_not_found`; anything else 400 `invalid_input`. The native body is translated for the
//   alternate and every native field it cannot express is disclosed in the dropped-params header.
// - `strict_mode=true`: the body is already the alternate's own shape: no translation, no native
//   schema check, no dropped params, and no fallback.
// - `fallback_provider=false`: a failure of the model's own provider is refused, never retried on
//   the alternate; otherwise a retry that succeeds names the provider that served it.
// Here `dev/image` is the one model with an alternate (`fal`); its own provider fails whenever the
// prompt contains `provider-down`, so the fallback can be seen.
import type { RequestContext } from '../contract.js';
import type { JsonObject, ModelOutcome } from './stock/types.js';
import { RUN_CONTROL_PARAMS } from '../../protocol/models.js';

export const ALTERNATE_PROVIDERS = ['fal', 'wavespeed', 'runware', 'higgsfield'] as const;
const NATIVE_ALIASES = new Set(['default', 'comfy', 'comfyui']);
export const PRIMARY_DOWN_TRIGGER = 'provider-down';

type Translation = (input: JsonObject) => string[];

/** The models that can be retargeted: per alternate, the native fields its translation drops. */
const ALTERNATES: Record<string, Record<string, Translation>> = {
  'dev/image': {
    fal: (input) => [
      ...(input.seed !== undefined ? ['seed (fal does not take a seed for this model, so the picture cannot be reproduced)'] : []),
      ...(input.guidance_scale !== undefined ? ['guidance_scale (fal applies its own, fixed guidance, so the value was not sent)'] : []),
    ],
  },
};

export interface Dispatch {
  /** The alternate chosen with model_provider; undefined: the model's own provider. */
  provider?: string;
  strict: boolean;
  fallback: boolean;
}

export const NATIVE_DISPATCH: Dispatch = { strict: false, fallback: true };

export type DispatchRefusal = { status: number; errorType: string; detail: string };

/** The controls of a run request, or why they are refused (nothing was dispatched). */
export function readDispatch(ctx: RequestContext, modelId: string): Dispatch | DispatchRefusal {
  const q = ctx.url.searchParams;
  const strictValue = q.get(RUN_CONTROL_PARAMS.strict);
  if (strictValue !== null && strictValue !== 'true' && strictValue !== 'false') {
    return { status: 400, errorType: 'invalid_input', detail: `strict_mode must be true or false, not "${strictValue}".` };
  }
  const named = q.get(RUN_CONTROL_PARAMS.provider);
  let provider: string | undefined;
  if (named !== null && !NATIVE_ALIASES.has(named)) {
    if (!(ALTERNATE_PROVIDERS as readonly string[]).includes(named)) {
      return { status: 400, errorType: 'invalid_input', detail: `"${named}" is not a registered provider; alternate providers are ${ALTERNATE_PROVIDERS.join(', ')}.` };
    }
    if (!ALTERNATES[modelId]?.[named]) return { status: 404, errorType: 'model_not_found', detail: `${named} does not serve ${modelId}.` };
    provider = named;
  }
  const strict = provider !== undefined && strictValue === 'true';
  return { provider, strict, fallback: q.get(RUN_CONTROL_PARAMS.fallback) !== 'false' && !strict };
}

export function isDispatchRefusal(d: Dispatch | DispatchRefusal): d is DispatchRefusal {
  return 'errorType' in d;
}

/** Runs the model as `dispatch` says: on the alternate (translated or strict), or natively with the fallback. */
export async function dispatchRun(modelId: string, dispatch: Dispatch, input: JsonObject, run: () => Promise<ModelOutcome>): Promise<ModelOutcome> {
  const alternates = ALTERNATES[modelId];
  if (dispatch.provider) {
    const out = await run();
    const dropped = dispatch.strict ? [] : alternates![dispatch.provider]!(input);
    return out.kind === 'ok' && dropped.length > 0 ? { ...out, droppedParams: dropped } : out;
  }
  const primaryDown = alternates !== undefined && typeof input.prompt === 'string' && input.prompt.includes(PRIMARY_DOWN_TRIGGER);
  if (!primaryDown) return run();
  const failed: ModelOutcome = { kind: 'error', status: 502, errorType: 'provider_error', detail: `The provider of ${modelId} failed to answer.` };
  if (!dispatch.fallback) return failed;
  const [name, translate] = Object.entries(alternates)[0]!;
  const out = await run();
  if (out.kind !== 'ok') return out; // a fallback that also fails is refused without the header
  const dropped = translate(input);
  return { ...out, fallbackProvider: name, ...(dropped.length > 0 ? { droppedParams: dropped } : {}) };
}
