// wes assets get <id>: the asset record; --json prints it unchanged.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { printRecord } from '../../render/table.js';
import { formatBytes } from '../../util/byte-count.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { id: arg('<id>') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const { asset } = await f.client(JobsClient).getAsset(args.id);
  printRecord(f.io, asset, () => [
    ['id', asset.id],
    ['file path', asset.file_path ?? undefined],
    ['content type', asset.content_type],
    ['size', typeof asset.size_bytes === 'number' ? `${formatBytes(asset.size_bytes)} (${asset.size_bytes} bytes)` : undefined],
    ['hash', asset.hash ?? 'not computed yet'],
    ['job', asset.job_id ?? undefined],
    ['created', asset.created_at],
    ['expires', asset.expires_at === undefined ? undefined : (asset.expires_at ?? 'never')],
    ['url expires', asset.url_expires_at],
  ]);
  return 0;
}

export default defineVerb({
  path: ['assets', 'get'],
  args: positional,
  options: noOptions(),
  help: {
    summary: 'Show an asset record (file path, content type, size, hash, producing job, expiry)',
    after: [
      `
Examples:
  $ wes assets get "$ASSET"
  $ wes assets get "$ASSET" --json | jq -r .hash`,
    ],
  },
  run,
});
