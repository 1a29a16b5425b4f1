// Small files written whole (a model's output, job.json): NAME.part first, then renamed, so a
// reader never sees half a file and a failed write leaves none.
import { rename, rm, writeFile } from 'node:fs/promises';

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const part = `${path}.part`;
  try {
    await writeFile(part, data);
    await rename(part, path);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
}
