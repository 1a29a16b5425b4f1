// wes legacy view <filename> [--subfolder S] [--type output|temp] [-o FILE]: the file behind
// /api/view. The 302's signed URL is fetched with no key (redirects by hand, in the HTTP layer).
// A file already at -o with the same bytes is kept (exit 0); with other bytes it stops the command
// unless --clobber or --skip-existing says otherwise.
import { basename } from 'node:path';
import { ExitCode, toWesError, WesError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { pipeline } from 'node:stream/promises';
import type { Factory } from '../../factory.js';
import { safeFileName } from '../../files/safe-name.js';
import { existingPolicy } from '../../files/existing.js';
import { checkFileTarget } from '../../files/targets.js';
import { saveViewedFile } from '../../features/legacy/view.js';
import { reporterOn } from '../reporters.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { existingFileOptions, noFileFlagsWithStdout, type ExistingFileOptions } from '../option-values.js';
import { choice, nonEmpty, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const VIEW_TYPES = ['output', 'temp', 'input'] as const;

interface LegacyViewOptions extends ExistingFileOptions {
  subfolder: string;
  type: (typeof VIEW_TYPES)[number];
  output?: string;
}

const legacyViewOptions = (): OptionsDeclaration<LegacyViewOptions> => ({
  subfolder: valueOption('--subfolder <subfolder>', 'subfolder of the file reference', (raw) => raw).default(''),
  type: choice('--type <type>', 'output for final outputs, temp for previews', VIEW_TYPES).default('output' as const),
  output: valueOption('-o, --output <file>', 'write to FILE (- for stdout)', nonEmpty),
  ...existingFileOptions(),
});

const legacyViewRules: Array<OptionsRule<LegacyViewOptions>> = [noFileFlagsWithStdout()];

const positional = { filename: arg('<filename>') };

/** The file asked for, as /view names it. */
type FileRef = { filename: string; subfolder: string; type: string };

/**
 * A 404 from /view means no such file (ComfyUI answers it with an empty body, so the transport
 * can only say "HTTP 404"): name the file, folder and type that were asked for.
 */
function notThere(err: unknown, ref: FileRef): unknown {
  const wes = toWesError(err);
  if (wes.status !== 404) return err;
  const where = ref.subfolder ? ` in the subfolder "${ref.subfolder}"` : '';
  return new WesError(sanitizeLine(`no ${ref.type} file "${ref.filename}"${where} on the server`), {
    exitCode: ExitCode.NOT_FOUND,
    code: 'not_found',
    status: 404,
    hint: 'check the name, --type (output, input or temp) and --subfolder; `wes legacy prompt FILE --download DIR` saves a prompt\'s outputs under their own names',
  });
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: LegacyViewOptions): Promise<number> {
  const ref: FileRef = { filename: args.filename, subfolder: opts.subfolder, type: opts.type };
  try {
    return await view(f, ref, opts);
  } catch (err) {
    throw notThere(err, ref);
  }
}

async function view(f: Factory, ref: FileRef, opts: LegacyViewOptions): Promise<number> {
  const existing = existingPolicy(opts);
  const target = opts.output;
  if (target !== undefined && target !== '-') await checkFileTarget(target, '-o');
  const { client } = await legacyClient(f, 'view');
  if (target === '-' || (target === undefined && !f.io.stdoutIsTTY)) {
    const res = await client.view(ref);
    await pipeline(res.body, f.io.stdout, { end: false });
    return 0;
  }
  // A name the user gave is theirs; a name the server's file reference carries is made safe.
  const path = target ?? safeFileName(basename(ref.filename), 'download');
  const viewed = await saveViewedFile(client, ref, path, existing, reporterOn(f.io), f.hashing());
  if (viewed.kind === 'same') {
    f.io.info(`kept the existing ${path} (the same bytes)`);
    if (f.io.json) f.io.printJson({ path, bytes: viewed.bytes, hash: viewed.hash });
    return 0;
  }
  const saved = viewed.file;
  if (saved.kept) f.io.info(`kept the existing ${saved.path} (--skip-existing)`);
  if (f.io.json) f.io.printJson({ path: saved.path, bytes: saved.bytes, hash: saved.hash });
  else if (!saved.kept) f.io.info(`saved ${saved.path} (${saved.bytes} bytes)`);
  return 0;
}

export default defineVerb({
  path: ['legacy', 'view'],
  args: positional,
  options: legacyViewOptions(),
  rules: legacyViewRules,
  help: { summary: 'Fetch an output file (the signed redirect is followed with no key); to -o FILE, or stdout when piped', after: ['\nExamples:\n  $ wes legacy view wes_00001_.png -o cat.png\n  $ wes legacy view wes_00001_.png > cat.png'] },
  run,
});
