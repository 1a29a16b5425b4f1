// wes assets upload <file>: hash, try from-hash, upload only when the service lacks the bytes.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { AssetPlacer } from '../../clients/jobs/assets.js';
import { sanitizeLine } from '../../render/sanitize.js';

export async function run(f: Factory, args: string[], opts: Record<string, unknown>): Promise<number> {
  const { io } = f;
  const path = args[0]!;
  const placer = new AssetPlacer(new JobsClient(f.http()));
  const placed = await placer.place(path, {
    contentType: typeof opts.contentType === 'string' ? opts.contentType : undefined,
    filePath: typeof opts.name === 'string' ? opts.name : undefined,
  });
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
