// The URL a `format: uri` field of a model gets from `-i KEY=asset:ID` or `-i KEY=@FILE`: the
// asset's content URL on the job API, with a local file put there first (its bytes sent only when
// the service lacks them). Partner models fetch their images themselves, so they need a URL the
// service hosts, which carries no credential: the router receives it as a plain string. Loaded
// only when such a pair is given.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import type { HostedSource, HostedUrlResolver } from '../../clients/models/input-pairs.js';
import { uploadAsset } from '../../features/transfers/uploads.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { transferReporterOn } from '../reporters.js';

export function hostedUrlResolver(f: Factory): HostedUrlResolver {
  return async (source: HostedSource) => {
    const client = f.client(JobsClient);
    let id: string;
    if (source.kind === 'asset') {
      id = source.id;
    } else {
      const placed = await uploadAsset(client, source.path, {}, transferReporterOn(f.io), f.hashing());
      id = placed.asset.id;
      f.io.info(sanitizeLine(placed.uploaded ? `uploaded ${source.path} as asset ${id}` : `the service already held ${source.path}: asset ${id}`));
    }
    return (await client.assetUrl(id)).href;
  };
}
