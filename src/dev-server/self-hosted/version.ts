// What differs between the ComfyUI releases the self-hosted deployment imitates, each point as
// recorded from a real engine of that release (../shared/observations, recordings engine-*.json):
// 0.3.18 (February 2025) and 0.3.64 (October 2025). Everything else they answer alike.
import type { DevState, EngineVersion } from '../contract.js';

export interface EngineTraits {
  version: EngineVersion;
  /** POST /prompt uses a client-supplied `prompt_id` as given (0.3.18 makes its own). */
  takesPromptId: boolean;
  /** POST /interrupt `{prompt_id}` stops only that prompt, and only while it runs (0.3.18 ignores the body). */
  targetedInterrupt: boolean;
  /** GET /features answers (0.3.18: 404), and a first `feature_flags` message is answered and honoured. */
  featureFlags: boolean;
  /** `progress_state` messages as nodes start, step and finish. */
  progressState: boolean;
  /** Refusals other than failed validation carry `node_errors: {}` (0.3.18: `[]`), and no `prompt` key an `error` object (0.3.18: a string). */
  refusalsAsObjects: boolean;
  /** GET /history takes `offset` besides `max_items`. */
  historyOffset: boolean;
}

const TRAITS: Record<EngineVersion, EngineTraits> = {
  '0.3.18': { version: '0.3.18', takesPromptId: false, targetedInterrupt: false, featureFlags: false, progressState: false, refusalsAsObjects: false, historyOffset: false },
  '0.3.64': { version: '0.3.64', takesPromptId: true, targetedInterrupt: true, featureFlags: true, progressState: true, refusalsAsObjects: true, historyOffset: true },
};

export function engineTraits(state: DevState): EngineTraits {
  return TRAITS[state.options.engineVersion];
}

/** What 0.3.64 answers on GET /features and in its `feature_flags` reply. */
export const ENGINE_FEATURES = { supports_preview_metadata: true, max_upload_size: 104_857_600 } as const;
