// Small files written whole (a model's output, job.json, the profile, caches): a fresh temp file
// created exclusively next to the target, then moved over it, so a reader never sees half a file,
// a failed write leaves none, and a link planted at either name is never written through.
import { writeFileSafely, type WriteSafelyOptions } from './safe-file.js';

export function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteSafelyOptions = {}): Promise<void> {
  return writeFileSafely(path, data, options);
}
