// The node classes the dev engine runs.
import { EmptyImage } from './empty-image.js';
import { Fail } from './fail.js';
import { ImageInvert } from './image-invert.js';
import { LoadImage } from './load-image.js';
import { PartnerCall } from './partner-call.js';
import { Sample } from './sample.js';
import { SaveBytes } from './save-bytes.js';
import { SaveImage } from './save-image.js';
import { SaveText } from './save-text.js';
import { CheckpointLoaderSimple, CLIPTextEncode, EmptyLatentImage, KSampler, VAEDecode } from './sd-pipeline.js';
import type { NodeClass } from './types.js';

export const NODE_CLASSES: ReadonlyMap<string, NodeClass> = new Map(
  [EmptyImage, ImageInvert, LoadImage, Sample, SaveImage, SaveText, SaveBytes, Fail, PartnerCall, CheckpointLoaderSimple, CLIPTextEncode, EmptyLatentImage, KSampler, VAEDecode].map((c) => [c.name, c]),
);

/** Classes the node registry knows but this build lacks: the pack named in unknown_node_class messages. */
export const KNOWN_NODE_PACKS: Record<string, string> = {
  LoraLoader: 'comfy-core',
  ControlNetApplyAdvanced: 'comfy-core',
  VHS_VideoCombine: 'ComfyUI-VideoHelperSuite',
  IPAdapterAdvanced: 'ComfyUI_IPAdapter_plus',
  UltralyticsDetectorProvider: 'ComfyUI-Impact-Subpack',
};
