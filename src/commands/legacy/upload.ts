// wes legacy upload <file> [--type input|temp] [--overwrite] [--mask --original FILE_REF]
import type { Factory } from '../../factory.js';
import { checkLocalFile } from '../../files/local-file.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { uploadInput } from '../../features/transfers/uploads.js';
import { transferReporterOn } from '../reporters.js';
import { choice, flag, needs, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { parseOriginalRef, type OriginalRef } from './original-ref.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const UPLOAD_TYPES = ['input', 'temp'] as const;

interface LegacyUploadOptions {
  type: (typeof UPLOAD_TYPES)[number];
  overwrite?: boolean;
  mask?: boolean;
  original?: OriginalRef;
}

const legacyUploadOptions = (): OptionsDeclaration<LegacyUploadOptions> => ({
  type: choice('--type <type>', 'input for images, temp for temporary files', UPLOAD_TYPES).default('input' as const),
  overwrite: flag('--overwrite', 'replace a file of the same name instead of getting a numbered copy').conflicts('mask'),
  mask: flag('--mask', 'upload a mask for an earlier image (needs --original)'),
  original: valueOption('--original <file_ref>', 'the image the mask belongs to: a name, or {"filename":…,"subfolder":…,"type":…}', parseOriginalRef),
});

const legacyUploadRules: Array<OptionsRule<LegacyUploadOptions>> = [
  ({ given }) => (given('mask') && !given('original') ? '--mask needs --original FILE_REF (the image the mask belongs to)' : undefined),
  needs('original', 'mask'),
];

const positional = { file: arg('<file>') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: LegacyUploadOptions): Promise<number> {
  const path = args.file;
  // The options' rules above hold --mask and --original together:
  // --original given is a mask upload.
  const originalRef = opts.original;
  const size = await checkLocalFile(path);
  const { client } = await legacyClient(f, 'upload');
  const result = await uploadInput(client, { path, size, type: opts.type, overwrite: opts.overwrite === true, originalRef }, transferReporterOn(f.io));
  if (f.io.json) {
    f.io.printJson(result);
    return 0;
  }
  const name = sanitizeLine(result.name);
  f.io.println(result.subfolder ? `${sanitizeLine(result.subfolder)}/${name}` : name);
  f.io.info(`uploaded ${path} as ${JSON.stringify(name)}${originalRef ? ` (mask of ${originalRef.filename})` : ''}; refer to it by that name in a LoadImage node`);
  return 0;
}

export default defineVerb({
  path: ['legacy', 'upload'],
  args: positional,
  options: legacyUploadOptions(),
  rules: legacyUploadRules,
  help: { summary: 'Upload an input image (multipart field `image`); prints the name to use in a LoadImage node', after: ['\nExamples:\n  $ wes legacy upload cat.png\n  $ wes legacy upload cat-mask.png --mask --original cat.png\n  $ wes legacy upload m.png --mask --original \'{"filename":"cat.png","subfolder":"","type":"input"}\''] },
  run,
});
