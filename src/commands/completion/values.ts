// wes __complete <kind>: dynamic values for the completion scripts, one a line. Never fails
// loudly and never waits for the network: a broken config completes nothing, model ids come from
// a cache refreshed in the background. Only values safe as shell words are printed: bash's
// `compgen -W` expands what it is given, so a hand-edited name like $(cmd) must not pass.
import type { Factory } from '../../factory.js';
import { isValidProfileName } from '../../config/store.js';
import { jobHistory } from '../../features/jobs/history.js';
import { cachedModelIds, refreshModelIds } from '../../command-kit/completion/model-ids.js';
import { setTargets } from '../../command-kit/completion/set-targets.js';
import { DYNAMIC_KINDS } from '../../completion/kinds.js';
import { noOptions } from '../typed-options.js';
import { arg, choiceArg, defineVerb, type ArgsOf } from '../verb.js';

const SAFE_JOB_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const MAX_JOBS = 50;

function profiles(f: Factory): string[] {
  const store = f.store();
  const names = new Set(['default', ...Object.keys(store.profiles())]);
  const current = store.currentProfile();
  if (current) names.add(current);
  return [...names].filter(isValidProfileName).sort();
}

function jobs(f: Factory): string[] {
  const ids = jobHistory(f).entries().map((e) => e.id).filter((id) => SAFE_JOB_ID.test(id)).slice(0, MAX_JOBS);
  return ids.length ? ['@last', ...ids] : [];
}

const positional = { kind: choiceArg('<kind>', undefined, DYNAMIC_KINDS), context: arg('[context]', 'for set: the workflow file named on the command line') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  try {
    switch (args.kind) {
      case 'profiles':
        for (const name of profiles(f)) f.io.println(name);
        break;
      case 'jobs':
        for (const id of jobs(f)) f.io.println(id);
        break;
      case 'models':
        for (const id of cachedModelIds(f)) f.io.println(id);
        break;
      case 'models-refresh':
        await refreshModelIds(f);
        break;
      case 'set':
        for (const target of setTargets(args.context)) f.io.println(target);
        break;
    }
  } catch {
    // nothing to offer: an unreadable config, no history, no cache, an unreachable router
  }
  return 0;
}

export default defineVerb({
  path: ['__complete'],
  args: positional,
  options: noOptions(),
  // Asked by the completion scripts for values that live in the configuration.
  help: { summary: 'Print completion values of one kind, one a line', hidden: true },
  run,
});
