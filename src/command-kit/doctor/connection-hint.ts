// What a failed connection should tell a new user: which URL wes tried, where that URL came
// from (a flag, the environment, a profile, or the built-in default), and what to do next.
import type { Settings } from '../../config/settings.js';
import { describeSource } from '../../config/settings.js';
import { withoutPassword } from '../../config/keys.js';
import type { Factory } from '../../factory.js';
import { WesError } from '../../errors.js';

export interface TriedUrl {
  url: string;
  /** "the default", "--base-url", "WES_ROUTER_URL", "profile key base_url", "the base URL". */
  source: string;
  isDefault: boolean;
  what: 'base URL' | 'router URL';
}

/** The configured URL a failure message is about: the router URL when it names that origin. */
export function triedUrl(settings: Settings, message: string): TriedUrl {
  const routerOrigin = new URL(settings.routerUrl).origin;
  const baseOrigin = new URL(settings.baseUrl).origin;
  if (routerOrigin !== baseOrigin && message.includes(routerOrigin)) {
    const v = settings.values.router_url;
    return { url: withoutPassword(settings.routerUrl), source: describeSource(v, 'router_url'), isDefault: false, what: 'router URL' };
  }
  const v = settings.values.base_url;
  const isDefault = v.source === 'default';
  return { url: withoutPassword(settings.baseUrl), source: isDefault ? 'the default' : describeSource(v, 'base_url'), isDefault, what: 'base URL' };
}

/** `doctor`: whether to point at `wes doctor` (not from inside it). */
export function connectionHint(tried: TriedUrl, profile: string, doctor = true): string {
  if (tried.isDefault) {
    return (
      `wes tried ${tried.url}, the default base URL (profile "${profile}" sets none, nor does --base-url or WES_BASE_URL). ` +
      'Start a local service there with `wes dev-server`, or log in to yours with `wes auth login`'
    );
  }
  return (
    `wes tried ${tried.url}, the ${tried.what} from ${tried.source} (profile "${profile}"). Is the server running and the URL right?` +
    `${doctor ? ' `wes doctor` checks every API family;' : ''} \`wes auth login\` or --base-url points wes elsewhere`
  );
}

/** Gives a network failure the hint above, unless it already has a more specific one. */
export function explainConnectionFailure(err: WesError, settings: () => Settings): void {
  if (err.code !== 'network_error') return;
  if (err.hint && !err.message.includes('could not connect')) return;
  try {
    const s = settings();
    err.hint = connectionHint(triedUrl(s, err.message), s.profile);
  } catch {
    // settings that do not resolve fail on their own with a usage error
  }
}

/** The error path's explainer (registered by doctor/group.ts): a failed connection says which URL, from where, and what to do. */
export async function explain(f: Factory, err: unknown): Promise<unknown> {
  if (err instanceof WesError && err.code === 'network_error') explainConnectionFailure(err, () => f.settings());
  return err;
}
