// The URL a `format: uri` field of a model gets from `-i KEY=asset:ID` or `-i KEY=@FILE`: the
// asset's content URL on the job API, with a local file put there first (its bytes sent only when
// the service lacks them). Partner models fetch their images themselves, so they need a URL the
// service hosts, which carries no credential: the router receives it as a plain string. Loaded
// only when such a pair is given.
import { JobsClient } from '../../clients/jobs/client.js';
import type { HostedSource, HostedUrlResolver } from '../../clients/models/input-pairs.js';
import { uploadAsset } from '../transfers/uploads.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { FeatureContext } from '../context.js';
import type { TransferReporter } from '../reporter.js';

export function hostedUrlResolver(f: FeatureContext, reporter: TransferReporter): HostedUrlResolver {
  return async (source: HostedSource) => {
    const client = f.client(JobsClient);
    let id: string;
    if (source.kind === 'asset') {
      id = source.id;
    } else {
      const placed = await uploadAsset(client, source.path, {}, reporter, f.hashing());
      id = placed.asset.id;
      reporter.notice('info', sanitizeLine(placed.uploaded ? `uploaded ${source.path} as asset ${id}` : `the service already held ${source.path}: asset ${id}`));
    }
    return (await client.assetUrl(id)).href;
  };
}
