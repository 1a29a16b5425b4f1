// wes assets upload <file>: hash, try from-hash, upload only when the service lacks the bytes.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { uploadAsset } from '../../features/transfers/uploads.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { transferReporterOn } from '../reporters.js';
import type { AssetsUploadOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: AssetsUploadOptions): Promise<number> {
  const { io } = f;
  const path = args[0]!;
  const placed = await uploadAsset(new JobsClient(f.http()), path, { contentType: opts.contentType, filePath: opts.name, tags: opts.tag, expiresIn: opts.expiresIn }, transferReporterOn(io));
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
