// wes auth login: stores the base URL (when given) and credentials in the selected profile.
import type { Factory } from '../../factory.js';
import { ExitCode, UsageError, WesError } from '../../errors.js';
import { DEFAULT_PROFILE, normalizeBaseUrl, resolveSettings, type GlobalFlags, type SettingsUse } from '../../config/settings.js';
import { DEFAULT_BASE_URL, ENV_FOR_KEY, maskSecret, type ProfileKey } from '../../config/keys.js';
import { SETTING_CHECKS } from '../../config/checks.js';
import { probeAll } from '../../clients/probe.js';
import { prompt, readStdinLines } from '../../command-kit/auth/read-secret.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { flag, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { defineVerb } from '../verb.js';

interface AuthLoginOptions {
  withToken?: boolean;
  routerTokenStdin?: boolean;
  /** False with --no-verify. */
  verify: boolean;
}

const options = (): OptionsDeclaration<AuthLoginOptions> => ({
  withToken: flag('--with-token', 'read the API key from standard input (first line)'),
  routerTokenStdin: flag('--router-token-stdin', 'read the router credential from standard input (next line)'),
  verify: flag('--no-verify', 'do not check the credential against the server'),
});

/** A credential read from standard input and given as a flag too: which one to save is not clear. */
const rules: Array<OptionsRule<AuthLoginOptions>> = [
  ({ given, givenGlobal }) => (given('withToken') && givenGlobal('apiKey') ? '--with-token reads the API key from standard input, and --api-key gives one too; pass one of them' : undefined),
  ({ given, givenGlobal }) => (given('routerTokenStdin') && givenGlobal('routerToken') ? '--router-token-stdin reads the router credential from standard input, and --router-token gives one too; pass one of them' : undefined),
];

/** What login is about to save, as the flags that would carry it. */
function asFlags(updates: Partial<Record<ProfileKey, string>>): GlobalFlags {
  const flags: GlobalFlags = { baseUrl: updates.base_url, routerUrl: updates.router_url, deployment: updates.deployment, apiKey: updates.api_key, routerToken: updates.router_token };
  return Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
}

/** Runs whatever is stored (it may be the repair), and creates the profile it is given. */
const settingsUse: SettingsUse = { tolerateBadValues: true, createsProfile: true };

async function run(f: Factory, _args: unknown, opts: AuthLoginOptions): Promise<number> {
  const { io } = f;
  const store = f.store();
  const profile = f.settings().profile;
  const updates: Partial<Record<ProfileKey, string>> = {};

  for (const [key, flag] of [['base_url', f.globals.baseUrl], ['router_url', f.globals.routerUrl], ['deployment', f.globals.deployment]] as const) {
    if (flag) updates[key] = flag;
  }
  if (f.globals.apiKey) updates.api_key = f.globals.apiKey;
  if (f.globals.routerToken) updates.router_token = f.globals.routerToken;

  if (opts.withToken || opts.routerTokenStdin) {
    const lines = await readStdinLines(io);
    let next = 0;
    if (opts.withToken) {
      if (!lines[next]) throw new UsageError('no API key on standard input', 'pipe it in: echo "$KEY" | wes auth login --with-token');
      updates.api_key = lines[next++];
    }
    if (opts.routerTokenStdin) {
      if (!lines[next]) throw new UsageError('no router credential on standard input', 'put it on the line after the API key');
      updates.router_token = lines[next++];
    }
  } else if (!updates.api_key) {
    if (!io.stdinIsTTY || !io.stderrIsTTY) {
      throw new UsageError('not a terminal: nothing to prompt with', 'pass the key on stdin: echo "$KEY" | wes auth login --with-token');
    }
    // The value offered is the one saved on Enter: as given (a {deployment} template stays one), else the default.
    const offered = f.settings().problems.some((p) => p.key === 'base_url') ? DEFAULT_BASE_URL : (f.settings().values.base_url.value ?? DEFAULT_BASE_URL);
    updates.base_url = (await prompt(io, `Base URL [${offered}]: `)) || offered;
    const key = await prompt(io, 'API key (empty for a self-hosted deployment without one): ', true);
    if (key) updates.api_key = key;
    const routerToken = await prompt(io, 'Router credential (empty: use the API key): ', true);
    if (routerToken) updates.router_token = routerToken;
  }

  for (const [key, value] of Object.entries(updates) as Array<[ProfileKey, string]>) SETTING_CHECKS[key].check(value, key);
  if (updates.base_url) normalizeBaseUrl(updates.base_url, updates.deployment ?? f.settings().deployment, 'base URL');
  if (updates.router_url) normalizeBaseUrl(updates.router_url, updates.deployment ?? f.settings().deployment, 'router URL');
  // The key is checked before it is written: a key the service refuses is never saved.
  const results = opts.verify ? await probeAll(f.httpFor(resolveSettings({ ...f.globals, ...asFlags(updates) }, f.env, f.store(), settingsUse), f.signal)) : [];
  if (opts.verify) await (await import('../../command-kit/models/router-host.js')).askRouterHost(f, results, updates, opts);
  const refused = results.filter((r) => r.verdict === 'rejected');
  if (refused.length > 0) {
    for (const r of refused) io.warn(`  ✗ ${r.family}: rejected by ${new URL(r.url).origin} (${sanitizeLine(r.message)})`);
    throw new WesError(`the service rejected the credential; nothing was saved to profile ${profile}`, {
      exitCode: ExitCode.AUTH,
      code: 'unauthorized',
      details: { rejected_by: refused.map((r) => r.surface) }, // the families' old names, as scripts know them
      hint: 'check the key and log in again; to save it without asking the service (offline set-up), add --no-verify',
    });
  }
  await store.setMany(profile, updates);
  const becomesCurrent = !store.currentProfile();
  if (becomesCurrent) await store.setCurrentProfile(profile);

  const saved = Object.keys(updates);
  io.info(`✓ saved ${saved.length ? saved.join(', ') : 'nothing new'} to profile ${profile} (${store.path})`);
  // The first profile saved becomes the one later commands use: said, since --profile named it for this command only.
  if (becomesCurrent && profile !== DEFAULT_PROFILE) io.info(`profile ${profile} is now the current profile (no other was chosen); change it with \`wes profiles use NAME\``);
  if (updates.api_key) io.info(`  API key ${maskSecret(updates.api_key)}`);

  if (opts.verify) {
    await f.reload();
    const now = f.settings();
    for (const key of Object.keys(updates) as ProfileKey[]) {
      if (now.values[key].source === 'env') io.warn(`  ! ${ENV_FOR_KEY[key]} is set and overrides the saved ${key}`);
    }
    for (const r of results) {
      if (r.verdict === 'accepted') io.info(`  ✓ ${r.family}: accepted by ${new URL(r.url).origin}`);
      else io.warn(`  ! ${r.family}: ${r.verdict} (${sanitizeLine(r.message)})`);
    }
  }
  if (io.json) io.printJson({ profile, saved, config_path: store.path });
  return 0;
}

export default defineVerb({
  path: ['auth', 'login'],
  args: {},
  options: options(),
  rules,
  help: {
    summary: 'Store a base URL and credentials in the selected profile (prompts on a terminal)',
    after: [
      `
Examples:
  $ wes auth login
  $ echo "$WES_KEY" | wes auth login --base-url https://api.example.com --with-token
  $ printf '%s\\n%s\\n' "$KEY" "$ROUTER_JWT" | wes --profile prod auth login --with-token --router-token-stdin`,
    ],
  },
  settingsUse,
  run,
});
