// Finds the file a v1 file reference (`filename`, `subfolder`, `type`) names: job outputs by their
// reference, uploads by name (uploads live in one flat namespace, so their subfolder is ignored).
import type { DevState, StoredOutput } from '../contract.js';

export function findFile(state: DevState, filename: string, subfolder: string, type: string): StoredOutput | undefined {
  if (type !== 'input') {
    const output = state.engine.findOutputByName(filename, subfolder, type);
    if (output) return output;
  }
  return state.blobs.findAssetByPath(filename);
}
