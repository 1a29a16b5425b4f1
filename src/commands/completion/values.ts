// wes __complete <kind>: dynamic values for the completion scripts, one a line. Never fails
// loudly: a broken config simply completes nothing. Only valid profile names are printed:
// bash's `compgen -W` expands what it is given, so a hand-edited name like $(cmd) must not pass.
import type { Factory } from '../../factory.js';
import { isValidProfileName } from '../../config/store.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  if (args[0] !== 'profiles') return 0;
  try {
    const store = f.store();
    const names = new Set(['default', ...Object.keys(store.profiles())]);
    const current = store.currentProfile();
    if (current) names.add(current);
    for (const name of [...names].filter(isValidProfileName).sort()) f.io.println(name);
  } catch {
    // an unreadable config file has no profiles to offer
  }
  return 0;
}
