import type { Factory } from '../../factory.js';
import { normalizeBaseUrl, validateDeployment, validateEngine, validateRouterApi } from '../../config/settings.js';
import { SECRET_KEYS, URL_KEYS } from '../../config/keys.js';
import { parseKey } from './key-arg.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const key = parseKey(args[0]);
  const value = args[1] ?? '';
  if (key === 'deployment') validateDeployment(value);
  if (key === 'engine') validateEngine(value, 'engine');
  if (key === 'router_api') validateRouterApi(value, 'router_api');
  if (URL_KEYS.has(key)) normalizeBaseUrl(value, value.includes('{deployment}') ? 'placeholder' : undefined, key);
  const profile = f.settings().profile;
  await f.store().set(profile, key, value);
  if (f.io.json) f.io.printJson({ profile, key, set: true });
  f.io.info(`✓ set ${key}${SECRET_KEYS.has(key) ? '' : ` to ${value}`} in profile ${profile}`);
  return 0;
}
