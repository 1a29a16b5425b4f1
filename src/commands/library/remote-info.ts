// wes library remote-info URL: what the cloud learns of a remote file without downloading it
// (getRemoteAssetMetadata): its name, size and type, tags from the source, and whether the cloud
// would take it (validation: errors block a download, warnings do not).
import type { Factory } from '../../factory.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import type { LibraryValidationProblem } from '../../protocol/library.js';
import { printRecord } from '../../render/table.js';
import { formatBytes } from '../../util/byte-count.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';
import { remoteUrl } from './url.js';

const positional = { url: arg('<url>', 'a download URL (Hugging Face, Civitai, or another HTTP(S) source)') };

function problems(list: LibraryValidationProblem[] | undefined): string | undefined {
  return list?.length ? list.map((p) => sanitizeLine(`${p.message} (${p.code})`)).join('; ') : undefined;
}

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const url = remoteUrl(args.url);
  const meta = await f.client(LibraryClient).remoteMetadata(url.href);
  const v = meta.validation;
  printRecord(f.io, meta, () => [
    ['file', meta.filename !== undefined ? sanitizeLine(meta.filename) : undefined],
    ['name', meta.name !== undefined ? sanitizeLine(meta.name) : undefined],
    ['size', meta.content_length >= 0 ? `${formatBytes(meta.content_length)} (${meta.content_length} bytes)` : 'unknown'],
    ['type', meta.content_type !== undefined ? sanitizeLine(meta.content_type) : undefined],
    ['tags', meta.tags?.length ? sanitizeLine(meta.tags.join(', ')) : undefined],
    ['preview', meta.preview_image ? 'an image (in --json, as a data: URL)' : undefined],
    ['valid', v ? (v.is_valid ? 'yes' : 'no: the cloud will not download it') : undefined],
    ['errors', problems(v?.errors)],
    ['warnings', problems(v?.warnings)],
  ]);
  return 0;
}

export default defineVerb({
  path: ['library', 'remote-info'],
  args: positional,
  options: noOptions(),
  help: {
    summary: 'Show what the cloud learns of a remote file before downloading it (name, size, type, whether it would take it)',
    after: ['\nExamples:\n  $ wes library remote-info https://huggingface.co/ORG/REPO/resolve/main/model.safetensors\n  $ wes library remote-info "https://civitai.com/api/download/models/123456" --json | jq .validation'],
  },
  run,
});
