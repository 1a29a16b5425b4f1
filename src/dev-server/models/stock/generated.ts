// Behaviour of the generated catalog models: image providers make pictures, the others text.
import { imageModel } from './image.js';
import { textModel } from './text.js';
import type { ModelBehaviour } from './types.js';

export function generatedBehaviour(id: string, kind: 'image' | 'text', chargesOnPolicyRejection: string): ModelBehaviour {
  return kind === 'image' ? imageModel(id, chargesOnPolicyRejection) : textModel(id, { chargesOnPolicyRejection });
}
