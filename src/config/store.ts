// Profiles on disk: one JSON file (mode 0600) in WES_CONFIG_DIR or the per-user config folder
// (the path conf uses: env-paths config folder of "wes"). Layout:
// { current_profile, profiles: { <name>: { base_url, api_key, ... } } }.
// Reads parse the file directly; writes go through conf (the chosen store: atomic write to a
// randomly named temp file, then a rename, file mode 0600), loaded only then because conf costs
// more start-up than any read-only command. A link planted at the file is removed first, so
// neither conf's read nor its rename ever follows it (the rename replaces a name, not a target).
// conf's atomic write (atomically) hooks every exit signal as it loads, through when-exit; those
// hooks are taken off at once (see loadConf), so Ctrl-C after a profile write is handled as in
// every other command.
import envPaths from 'env-paths';
import { chmodSync, lstatSync, readFileSync, unlinkSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { makeFoldersSync } from '../util/make-folders.js';
import { ExitCode, UsageError, WesError } from '../errors.js';
import type { ProfileKey } from './keys.js';

export type Profile = Partial<Record<ProfileKey, string>>;

interface StoreShape {
  current_profile?: string;
  profiles?: Record<string, Profile>;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const CONFIG_NAME = 'config';

let confModule: Promise<typeof import('conf')> | undefined;

/**
 * conf, loaded once. Loading it evaluates atomically, which registers when-exit: a listener on
 * every exit signal that, on the first Ctrl-C, purges atomically's temp files and sends the same
 * signal again, so wes would take one Ctrl-C for two and exit before stopping in order. conf's
 * writes are synchronous, so no temp file of it can be pending when a signal is handled; the
 * listeners this load added are removed (the `exit` purge stays), and wes's own stay the only ones.
 */
function loadConf(): Promise<typeof import('conf')> {
  confModule ??= (async () => {
    const signals = Object.keys(constants.signals) as NodeJS.Signals[];
    const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
    const loaded = await import('conf');
    for (const signal of signals) {
      for (const listener of process.listeners(signal)) {
        if (!before.get(signal)!.has(listener)) process.off(signal, listener as (signal: NodeJS.Signals) => void);
      }
    }
    return loaded;
  })();
  return confModule;
}

const REPAIR = 'fix or remove it; `wes auth login` writes a new one';

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The file's content as wes reads it. A number or true/false written by hand (`"read_timeout": 30`)
 * is read as its text, so it is checked like any stored value (a bad one stops only the commands
 * that use it, and `wes config` can repair it); a null is an unset key. Anything else that is not
 * of this shape is refused as invalid JSON is: every profile value is then a string.
 */
function storeShape(parsed: unknown, path: string): StoreShape {
  const refuse = (what: string) => new UsageError(`the config file ${path} is not a wes config file: ${what}`, REPAIR);
  if (!isPlainObject(parsed)) throw refuse(`it holds ${Array.isArray(parsed) ? 'an array' : `a ${parsed === null ? 'null' : typeof parsed}`}, not an object`);
  const { current_profile: given, profiles } = parsed;
  const current = given === null ? undefined : given;
  if (current !== undefined && typeof current !== 'string') throw refuse('current_profile is not a string');
  if (profiles === undefined) return { current_profile: current };
  if (!isPlainObject(profiles)) throw refuse('profiles is not an object of profiles');
  // Object.fromEntries, not assignment: a key named __proto__ stays a key.
  const shaped = Object.entries(profiles).map(([name, profile]): [string, Profile] => {
    if (!isPlainObject(profile)) throw refuse(`profile ${JSON.stringify(name)} is not an object`);
    const values = Object.entries(profile).flatMap(([key, value]): [string, string][] => {
      if (value === null) return [];
      if (typeof value === 'string') return [[key, value]];
      if (typeof value === 'number' || typeof value === 'boolean') return [[key, String(value)]];
      throw refuse(`${name}.${key} is ${Array.isArray(value) ? 'an array' : 'an object'}, not a value`);
    });
    return [name, Object.fromEntries(values) as Profile];
  });
  return { current_profile: current, profiles: Object.fromEntries(shaped) };
}

export function isValidProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

export class ProfileStore {
  /** The folder holding the config file; caches live below it. */
  readonly dir: string;
  readonly path: string;
  private cache?: StoreShape;

  constructor(configDir: string | undefined) {
    this.dir = configDir ?? envPaths('wes', { suffix: '' }).config;
    this.path = join(this.dir, `${CONFIG_NAME}.json`);
  }

  private read(): StoreShape {
    if (this.cache) return this.cache;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return (this.cache = {});
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`the config file ${this.path} is not valid JSON (${(err as Error).message})`, REPAIR);
    }
    return (this.cache = storeShape(parsed, this.path));
  }

  private async write(mutate: (data: StoreShape) => void): Promise<void> {
    try {
      makeFoldersSync(this.dir, 0o700);
    } catch (err) {
      const { code, message } = err as NodeJS.ErrnoException;
      throw new WesError(`cannot make the config folder ${this.dir}: ${message}`, { exitCode: ExitCode.ERROR, code: code ?? 'config_folder', hint: 'set WES_CONFIG_DIR to a folder you can write', cause: err });
    }
    // Synchronous, like conf's own write below: a small file, and no node:fs/promises for commands that only read.
    if (lstatSync(this.path, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(this.path);
    const { default: Conf } = await loadConf();
    const conf = new Conf<StoreShape>({ projectName: 'wes', projectSuffix: '', configName: CONFIG_NAME, configFileMode: 0o600, cwd: this.dir });
    const data = structuredClone(conf.store); // read afresh: another wes may have changed the file
    mutate(data);
    conf.store = data;
    // Read again when next asked, through the same shape check (conf keeps a hand-written number as it is).
    this.cache = undefined;
  }

  /** A private cache folder (0700) for one profile, created on demand. */
  cacheDir(profile: string, ...parts: string[]): string {
    const dir = join(this.dir, 'cache', profile, ...parts);
    makeFoldersSync(dir, 0o700);
    chmodSync(dir, 0o700);
    return dir;
  }

  currentProfile(): string | undefined {
    return this.read().current_profile;
  }

  profiles(): Record<string, Profile> {
    return this.read().profiles ?? {};
  }

  profile(name: string): Profile | undefined {
    return this.profiles()[name];
  }

  hasProfile(name: string): boolean {
    return Object.hasOwn(this.profiles(), name);
  }

  setCurrentProfile(name: string): Promise<void> {
    return this.write((d) => {
      d.current_profile = name;
    });
  }

  set(name: string, key: ProfileKey, value: string): Promise<void> {
    return this.setMany(name, { [key]: value });
  }

  setMany(name: string, values: Profile): Promise<void> {
    return this.write((d) => {
      d.profiles ??= {};
      d.profiles[name] = { ...(d.profiles[name] ?? {}), ...values };
    });
  }

  async unset(name: string, key: ProfileKey): Promise<boolean> {
    if (this.profile(name)?.[key] === undefined) return false;
    await this.write((d) => {
      delete d.profiles?.[name]?.[key];
    });
    return true;
  }

  /** Ensures the profile exists (possibly empty), so `profiles use` can select it. */
  ensure(name: string): Promise<void> {
    return this.write((d) => {
      d.profiles ??= {};
      d.profiles[name] ??= {};
    });
  }
}
