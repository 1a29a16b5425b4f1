// Where the jobs are when the history of the profile in use is empty: each job history is kept
// per profile and base URL, so after `auth login --profile dev` the jobs submitted before are
// under `default` and `wes jobs list` alone shows none. Each other profile is resolved as
// `wes --profile NAME` would resolve it (the same flags and environment), and its history counted.
import { JobHistory, stateDir } from '../../config/history.js';
import { DEFAULT_PROFILE, resolveSettings, type GlobalFlags } from '../../config/settings.js';
import type { FeatureContext } from '../context.js';

export interface HistoryElsewhere {
  profile: string;
  baseUrl: string;
  jobs: number;
}

/** The other profiles whose history holds jobs, the fullest first. */
export function historyElsewhere(f: Pick<FeatureContext, 'env' | 'settings' | 'store'>, flags: GlobalFlags): HistoryElsewhere[] {
  const current = f.settings().profile;
  const store = f.store();
  const found: HistoryElsewhere[] = [];
  for (const profile of new Set([DEFAULT_PROFILE, ...Object.keys(store.profiles())])) {
    if (profile === current) continue;
    try {
      const { baseUrl } = resolveSettings({ ...flags, profile }, f.env, store, { tolerateBadValues: true });
      const jobs = new JobHistory(stateDir(f.env), profile, baseUrl).size();
      if (jobs > 0) found.push({ profile, baseUrl, jobs });
    } catch {
      // a profile that cannot be resolved, or a history that cannot be read, holds nothing to point to
    }
  }
  return found.sort((a, b) => b.jobs - a.jobs);
}
