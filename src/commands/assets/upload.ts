// wes assets upload <file>: hash, try from-hash, upload only when the service lacks the bytes.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { AssetPlacer } from '../../clients/jobs/assets.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { uploadProgress } from '../../render/upload-progress.js';
import type { AssetsUploadOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: AssetsUploadOptions): Promise<number> {
  const { io } = f;
  const path = args[0]!;
  const placer = new AssetPlacer(new JobsClient(f.http()));
  const placed = await placer.place(path, { contentType: opts.contentType, filePath: opts.name, tags: opts.tag, expiresIn: opts.expiresIn, observeUpload: (file, size) => uploadProgress(io, file, size) });
  if (io.json) io.printJson(placed.asset);
  else io.println(placed.asset.id);
  io.info(
    sanitizeLine(
      placed.uploaded
        ? `✓ uploaded ${path} as asset ${placed.asset.id} (${placed.hash})`
        : `✓ the service already held these bytes, nothing uploaded: asset ${placed.asset.id} (${placed.hash})`,
    ),
  );
  return 0;
}
