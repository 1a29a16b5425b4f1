// wes assets upload <file>: hash, try from-hash, upload only when the service lacks the bytes.
import { stat } from 'node:fs/promises';
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { REUSED_UPLOAD, uploadAsset } from '../../features/transfers/uploads.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { transferReporterOn } from '../reporters.js';
import { checked, nonEmpty, repeatableOption, valueOption, wholeNumberIn, type OptionsDeclaration } from '../typed-options.js';
import { ASSET_EXPIRES_IN_MAX, ASSET_EXPIRES_IN_MIN } from '../../protocol/jobs.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

/** type/subtype with optional parameters, in RFC 9110's token characters (no spaces, no line breaks). */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;[^\r\n]*)?$/;

interface AssetsUploadOptions {
  contentType?: string;
  name?: string;
  tag?: string[];
  expiresIn?: number;
}

const options = (): OptionsDeclaration<AssetsUploadOptions> => ({
  contentType: valueOption('--content-type <type>', 'media type (default: from the file extension)', checked((raw) => (MEDIA_TYPE.test(raw) ? undefined : 'it must be a media type such as image/png'))),
  name: valueOption('--name <file-path>', 'the name to record (default: the file name); workflows may refer to it', nonEmpty),
  tag: repeatableOption('--tag <tag>', 'a category tag to record on the asset, e.g. input (repeatable)', nonEmpty),
  expiresIn: valueOption('--expires-in <seconds>', `keep the asset this long instead of the service's default retention (${ASSET_EXPIRES_IN_MIN} to ${ASSET_EXPIRES_IN_MAX}: one minute to seven days)`, wholeNumberIn(ASSET_EXPIRES_IN_MIN, ASSET_EXPIRES_IN_MAX)),
});

const positional = { file: arg('<file>') };

/** A 0-byte file is most often the wrong file (a failed export, a truncated copy): it is uploaded, but said. */
async function warnIfEmpty(f: Factory, path: string): Promise<void> {
  const size = await stat(path).then((s) => (s.isFile() ? s.size : undefined), () => undefined); // unreadable: the upload says why
  if (size === 0) f.io.warn(sanitizeLine(`warning: ${path} is empty (0 bytes): the asset will hold no data; check that this is the file you meant`));
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: AssetsUploadOptions): Promise<number> {
  const { io } = f;
  const path = args.file;
  await warnIfEmpty(f, path);
  const placed = await uploadAsset(f.client(JobsClient), path, { contentType: opts.contentType, filePath: opts.name, tags: opts.tag, expiresIn: opts.expiresIn }, transferReporterOn(io), f.hashing());
  if (io.json) io.printJson(placed.asset);
  else io.println(placed.asset.id);
  io.info(
    sanitizeLine(
      placed.uploaded
        ? `✓ uploaded ${path} as asset ${placed.asset.id} (${placed.hash})`
        : placed.reusedUpload
          ? `✓ ${REUSED_UPLOAD} ${path}: asset ${placed.asset.id} (${placed.hash})`
          : `✓ the service already held these bytes, nothing uploaded: asset ${placed.asset.id} (${placed.hash})`,
    ),
  );
  const reused = !placed.uploaded || placed.asset.created_new === false;
  const nameIgnored = opts.name !== undefined && typeof placed.asset.file_path === 'string' && placed.asset.file_path !== opts.name;
  const tagsIgnored = (opts.tag?.length ?? 0) > 0 && placed.asset.created_new === false;
  if (reused && (nameIgnored || tagsIgnored)) {
    // A reused record keeps its own name and tags (Comfy Cloud's from-hash, the proxy's one record per blob).
    const kept = typeof placed.asset.file_path === 'string' ? ` (it keeps the name ${placed.asset.file_path})` : '';
    io.notice(sanitizeLine(`--name and --tag were not applied: the service reused an existing asset for these bytes${kept}; they apply only when an asset is made`));
  }
  return 0;
}

export default defineVerb({
  path: ['assets', 'upload'],
  args: positional,
  options: options(),
  help: {
    summary: 'Upload a file as an asset (sends no bytes when the service already holds them); prints the asset id',
    after: [
      `
A workflow refers to it with --set NODE.INPUT=asset:ID (or uploads it itself with --set NODE.INPUT=@FILE).

Examples:
  $ wes assets upload cat.png
  $ wes assets upload mask.png --name masks/cat-mask.png --tag input --json
  $ wes assets upload clip.mp4 --expires-in 3600`,
    ],
  },
  run,
});
