// Profiles on disk, through conf: one JSON file (mode 0600) in WES_CONFIG_DIR or conf's per-user
// folder. Layout: { current_profile, profiles: { <name>: { base_url, api_key, ... } } }.
import Conf from 'conf';
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ProfileKey } from './keys.js';

export type Profile = Partial<Record<ProfileKey, string>>;

interface StoreShape {
  current_profile?: string;
  profiles?: Record<string, Profile>;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function isValidProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

export class ProfileStore {
  private readonly conf: Conf<StoreShape>;

  constructor(configDir: string | undefined) {
    if (configDir) mkdirSync(configDir, { recursive: true, mode: 0o700 });
    this.conf = new Conf<StoreShape>({
      projectName: 'wes',
      projectSuffix: '',
      configName: 'config',
      configFileMode: 0o600,
      ...(configDir ? { cwd: configDir } : {}),
    });
  }

  get path(): string {
    return this.conf.path;
  }

  /** The folder holding the config file; caches live below it. */
  get dir(): string {
    return dirname(this.conf.path);
  }

  /** A private cache folder (0700) for one profile, created on demand. */
  cacheDir(profile: string, ...parts: string[]): string {
    const dir = join(this.dir, 'cache', profile, ...parts);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    return dir;
  }

  currentProfile(): string | undefined {
    return this.conf.get('current_profile');
  }

  setCurrentProfile(name: string): void {
    this.conf.set('current_profile', name);
  }

  profiles(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {};
  }

  profile(name: string): Profile | undefined {
    return this.profiles()[name];
  }

  hasProfile(name: string): boolean {
    return Object.hasOwn(this.profiles(), name);
  }

  set(name: string, key: ProfileKey, value: string): void {
    const all = this.profiles();
    all[name] = { ...(all[name] ?? {}), [key]: value };
    this.conf.set('profiles', all);
  }

  unset(name: string, key: ProfileKey): boolean {
    const all = this.profiles();
    const profile = all[name];
    if (!profile || profile[key] === undefined) return false;
    delete profile[key];
    this.conf.set('profiles', all);
    return true;
  }

  /** Ensures the profile exists (possibly empty), so `profiles use` can select it. */
  ensure(name: string): void {
    const all = this.profiles();
    if (!all[name]) {
      all[name] = {};
      this.conf.set('profiles', all);
    }
  }
}
