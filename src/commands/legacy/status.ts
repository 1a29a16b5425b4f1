// wes legacy status <prompt_id> [--wait]: the prompt's state by REST (the cloud's status route, or
// a self-hosted engine's queue and history); --wait polls until a terminal value, treating every
// other value (even one never seen before) as in flight.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { segment } from '../../http/links.js';
import { endOfPrompt } from './report.js';
import { promptPoll } from '../../features/legacy/poll-prompt.js';
import { PromptView } from './prompt-view.js';
import { intervalMs, intervalOption } from '../poll-interval.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { flag, needs, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';
import { V1_SUCCESS_STATUSES, V1_TERMINAL_STATUSES } from '../../protocol/legacy.js';

interface LegacyStatusOptions {
  wait?: boolean;
  interval?: number;
}

const legacyStatusOptions = (): OptionsDeclaration<LegacyStatusOptions> => ({
  wait: flag('--wait', 'poll until a terminal status; exit 0 success, 3 failed or lost, 10 cancelled'),
  interval: intervalOption('seconds between polls (default 1; with --wait)'),
});

const legacyStatusRules: Array<OptionsRule<LegacyStatusOptions>> = [needs('interval', 'wait')];

const positional = { promptId: arg('<prompt_id>') };

async function run(f: Factory, { promptId }: ArgsOf<typeof positional>, opts: LegacyStatusOptions): Promise<number> {
  segment(promptId); // an id that would change the request path is refused before any request, the server's probe included
  const reader = (await legacyClient(f, 'status')).reader();
  if (!opts.wait) {
    const state = await reader.read(promptId);
    if (f.io.json) f.io.printJson(state.answer ?? { status: state.status });
    else f.io.println(sanitizeLine(state.status));
    if (state.errorMessage && !f.io.json) f.io.info(`error_message: ${sanitizeLine(state.errorMessage)}`);
    return 0;
  }
  const view = await PromptView.open(f.io, promptId, 'checking');
  const state = await promptPoll(f, reader, promptId, intervalMs(opts.interval, 1))(view);
  await view.end(state.status);
  if (f.io.json) f.io.printJson({ status: state.status, ...(state.errorMessage ? { error_message: state.errorMessage } : {}) });
  else f.io.println(sanitizeLine(state.status));
  return endOfPrompt(f, promptId, state);
}

export default defineVerb({
  path: ['legacy', 'status'],
  args: positional,
  options: legacyStatusOptions(),
  rules: legacyStatusRules,
  help: {
    summary: 'Print the v1 status; --wait polls until the prompt ends',
    after: [`\nThe statuses that end it: ${V1_TERMINAL_STATUSES.join(', ')} (exit 0 for ${V1_SUCCESS_STATUSES.join(' or ')}, 10 for cancelled, 3 for the others).\n\nExamples:\n  $ wes legacy status "$PROMPT_ID"\n  $ wes legacy status "$PROMPT_ID" --wait --timeout 600`],
  },
  run,
});
