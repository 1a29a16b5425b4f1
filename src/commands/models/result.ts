// wes models result MODEL REQUEST_ID (or @last) [-o FILE | --download DIR] [--wait]: a queued
// request's output, as `models run` gives it (the router's bytes unchanged; a binary output never
// raw on a terminal). Not ready yet: exit 8 naming --wait, or with --wait the request is followed
// until it is.
import type { Factory } from '../../factory.js';
import { existingPolicy } from '../../files/existing-policy.js';
import { modelsClient } from '../../command-kit/models/context.js';
import { queuedFollow, type OutputFetch } from '../../features/models/follow.js';
import { resultCommand } from '../../command-kit/models/again.js';
import { checkTargets, deliverOutput } from './output.js';
import { ModelProgressView } from './progress.js';
import { requestArgs } from '../../command-kit/models/requests-context.js';
import { existingFileOptions, existingFileRules, noFileFlagsWithStdout, type ExistingFileOptions } from '../option-values.js';
import { flag, needs, nonEmpty, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface ModelsResultOptions extends ExistingFileOptions {
  output?: string;
  download?: string;
  show?: boolean;
  /** Wait until the result is ready instead of answering "not yet". */
  wait?: boolean;
}

const modelsResultOptions = (): OptionsDeclaration<ModelsResultOptions> => ({
  output: valueOption('-o, --output <file>', 'write the output to a file instead of standard output (- for standard output)', nonEmpty),
  download: valueOption('--download <dir>', 'save every http(s) URL found in the output (or a binary output itself) into this folder', nonEmpty),
  show: flag('--show', 'with --download: show the saved pictures (kitty, iTerm2 or sixel terminals)'),
  wait: flag('--wait', 'wait for the request to finish (queue position, then status), then collect the output'),
  ...existingFileOptions(),
});

const modelsResultRules: Array<OptionsRule<ModelsResultOptions>> = [...existingFileRules<ModelsResultOptions>('output', 'download'), needs('show', 'download'), noFileFlagsWithStdout()];

const positional = { model: arg('<provider/model|@last>'), requestId: arg('[request-id]') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: ModelsResultOptions): Promise<number> {
  const { ref, requestId, links } = requestArgs(f, args, 'result');
  const target = { output: opts.output, download: opts.download, show: opts.show, existing: existingPolicy(opts) };
  if (!(await checkTargets(f, target, 'the result was not collected'))) return 0;
  const client = modelsClient(f);
  client.requests.remember(requestId, links);
  const resume = resultCommand(ref, requestId, target);
  const follow = { wait: opts.wait === true, resume, deliver: (fetch: OutputFetch) => deliverOutput(f, ref, target, fetch, { queuedRequestId: requestId }, resume) };
  await queuedFollow(f, client, ref, requestId, follow)(new ModelProgressView(f.io, ref, f.http().retries));
  return 0;
}

export default defineVerb({
  path: ['models', 'result'],
  args: positional,
  options: modelsResultOptions(),
  rules: modelsResultRules,
  help: { summary: "Collect a queued request's output (exit 8 while it is not ready; --wait follows it until it is)", after: ['\nExamples:\n  $ wes models result dev/slow 6f1a1a6e-6a53-4a5f-9d3a-2b3b0a1f9c21 --wait\n  $ wes models result @last -o out.json\n  $ wes models result @2 --download out/ --wait'] },
  run,
});
