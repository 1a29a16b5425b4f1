// wes legacy watch <prompt_id> [--previews DIR] [--preview]: follows a prompt over the v1
// WebSocket until it ends; exit 0 on success, 3 on failure, 10 when cancelled. An engine sends a
// prompt's messages only to the client that submitted it, so there its state is read by REST every
// second by default (the socket still shows what progress the engine sends to every client).
import type { Factory } from '../../factory.js';
import { PromptFollower } from '../../features/legacy/follow-prompt.js';
import { checkLegacyTargets } from '../../features/legacy/files.js';
import { endOfPrompt, reportPreviews } from './report.js';
import { intervalMs, intervalOption } from '../poll-interval.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { PromptView } from './prompt-view.js';
import { reporterOn } from '../reporters.js';
import { existingPolicy } from '../../files/existing.js';
import { segment } from '../../http/links.js';
import { existingFileOptions, existingFileRules, type ExistingFileOptions } from '../option-values.js';
import { flag, nonEmpty, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface LegacyWatchOptions extends ExistingFileOptions {
  previews?: string;
  preview?: boolean;
  interval?: number;
}

const legacyWatchOptions = (): OptionsDeclaration<LegacyWatchOptions> => ({
  previews: valueOption('--previews <dir>', 'save preview images into DIR, named by node and sequence', nonEmpty),
  preview: flag('--preview', 'draw the latest preview picture under the progress line (kitty, iTerm2 or sixel terminals)'),
  interval: intervalOption('seconds between REST status checks while the socket is quiet (default 5)'),
  ...existingFileOptions(),
});

/** Only previews are saved by a watch: the file flags mean something with --previews alone. */
const legacyWatchRules: Array<OptionsRule<LegacyWatchOptions>> = existingFileRules('previews');

const positional = { promptId: arg('<prompt_id>') };

async function run(f: Factory, { promptId }: ArgsOf<typeof positional>, opts: LegacyWatchOptions): Promise<number> {
  segment(promptId); // an id that would change the request path is refused before any request, the server's probe included
  await checkLegacyTargets(opts);
  const session = await legacyClient(f, 'watch');
  const follower = new PromptFollower(
    f,
    session.client,
    session.reader(),
    { previewsDir: opts.previews, existing: existingPolicy(opts), checkEveryMs: intervalMs(opts.interval, session.engine ? 1 : 5), engine: session.engine },
    reporterOn(f.io),
  );
  await follower.connect();
  const view = await PromptView.open(f.io, promptId, 'waiting for the first message', opts.preview === true);
  const result = await follower.follow(promptId)(view);
  await view.end(result.status);
  if (f.io.json) f.io.printJson({ prompt_id: promptId, status: result.status }, true);
  else f.io.println(result.status);
  if (opts.previews) reportPreviews(f, result, opts.previews);
  return endOfPrompt(f, promptId, result);
}

export default defineVerb({
  path: ['legacy', 'watch'],
  args: positional,
  options: legacyWatchOptions(),
  rules: legacyWatchRules,
  help: { summary: 'Follow a prompt over the WebSocket; exit 0 success, 3 error, 10 interrupted', after: ['\nExamples:\n  $ wes legacy watch "$PROMPT_ID" --preview\n  $ wes legacy watch "$PROMPT_ID" --previews previews/ --json > messages.ndjson'] },
  run,
});
