// wes legacy watch <prompt_id> [--previews DIR] [--preview]: follows a prompt over the v1
// WebSocket until it ends; exit 0 on success, 3 on failure, 10 when cancelled. An engine sends a
// prompt's messages only to the client that submitted it, so there its state is read by REST every
// second by default (the socket still shows what progress the engine sends to every client).
import type { Factory } from '../../factory.js';
import { PromptFollower } from '../../features/legacy/follow-prompt.js';
import { checkLegacyTargets } from '../../features/legacy/files.js';
import { failureOf, reportPreviews, showTraceback } from './report.js';
import { intervalMs } from '../poll-interval.js';
import { legacyClient } from './shared.js';
import { PromptView } from './prompt-view.js';
import { reporterOn } from '../reporters.js';
import { existingPolicy } from '../../files/existing.js';
import { segment } from '../../http/links.js';
import type { LegacyWatchOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: LegacyWatchOptions): Promise<number> {
  const promptId = args[0]!;
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
  const result = await follower.follow(promptId, view);
  await view.end(result.status);
  if (f.io.json) f.io.printJson({ prompt_id: promptId, status: result.status }, true);
  else f.io.println(result.status);
  if (opts.previews) reportPreviews(f, result, opts.previews);
  showTraceback(f, result.outcome);
  const failure = failureOf(promptId, result.status, result.outcome, result.errorMessage);
  if (failure) throw failure;
  return 0;
}
