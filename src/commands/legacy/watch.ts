// wes legacy watch <prompt_id> [--previews DIR]: follows a prompt over the v1 WebSocket until it
// ends; exit 0 on success, 3 on failure, 10 when cancelled.
import type { Factory } from '../../factory.js';
import { PromptFollower } from './follow-prompt.js';
import { failureOf, showTraceback } from './report.js';
import { intervalMs } from '../poll-interval.js';
import { legacyClient } from './shared.js';
import { checkLegacyTargets } from './files.js';
import { existingPolicy } from '../../files/existing.js';
import { statusReader } from './engine.js';
import type { LegacyWatchOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: LegacyWatchOptions): Promise<number> {
  const promptId = args[0]!;
  await checkLegacyTargets(opts);
  const client = await legacyClient(f, 'watch');
  const follower = new PromptFollower(f, client, await statusReader(f, client), { previewsDir: opts.previews, existing: existingPolicy(opts), checkEveryMs: intervalMs(opts.interval, 5), preview: opts.preview === true });
  const result = await follower.follow(promptId);
  if (f.io.json) f.io.printJson({ prompt_id: promptId, status: result.status }, true);
  else f.io.println(result.status);
  if (result.previewsSaved > 0) f.io.info(`saved ${result.previewsSaved} preview(s) in ${opts.previews!}`);
  showTraceback(f, result.outcome);
  const failure = failureOf(promptId, result.status, result.outcome);
  if (failure) throw failure;
  return 0;
}
