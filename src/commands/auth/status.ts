// wes auth status: which profile, which URLs, masked credentials with where each came from, and
// whether each API family accepts them. Exit 4 when a credential is refused, 1 when unreachable.
import type { Factory } from '../../factory.js';
import { ExitCode, HOW_TO_GIVE_A_KEY } from '../../errors.js';
import { withoutPassword } from '../../config/keys.js';
import { shownSettings } from '../../config/settings.js';
import { warnSettingProblems } from '../config/setting-problems.js';
import { probeAll, type ProbeResult } from '../../clients/probe.js';
import { AccountClient, type Account } from '../../clients/legacy/account.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { renderFields, renderTable } from '../../render/table.js';
import { credentialRoutes } from '../../command-kit/auth/credential-routes.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { defineVerb } from '../verb.js';

interface AuthStatusOptions {
  offline?: boolean;
}

const options = (): OptionsDeclaration<AuthStatusOptions> => ({
  offline: flag('--offline', 'do not contact the server'),
});

/** What to do when no key is configured at all (after `auth logout`, or before any login). */
const NO_KEY_HINT = `no API key is configured: ${HOW_TO_GIVE_A_KEY}`;

/** The account (GET /api/user) once the v1 API accepted the credential; none where it is not served. */
async function accountOf(f: Factory, probes: ProbeResult[]): Promise<Account | null> {
  if (!probes.some((r) => r.family === 'legacy' && r.verdict === 'accepted')) return null;
  return f.client(AccountClient).user().catch((err: Error) => {
    f.io.debug(`the account could not be read: ${err.message}`);
    return null;
  });
}

async function run(f: Factory, _args: unknown, opts: AuthStatusOptions): Promise<number> {
  const { io } = f;
  const s = f.settings();
  warnSettingProblems(f);
  const values = Object.fromEntries(shownSettings(s).map(({ key, value, source }) => [key, { value, source }]));
  // `surfaces` is the JSON key scripts read (`jq .surfaces`): each entry names its `family`, and its old `surface` name.
  const routes = credentialRoutes(s);
  const probes: ProbeResult[] = opts.offline ? [] : await probeAll(f.http(), { routerApi: f.settings().routerApi });
  const account = await accountOf(f, probes);
  const summary = {
    profile: s.profile,
    profile_source: s.profileSource,
    config_path: f.store().path,
    base_url: withoutPassword(s.baseUrl),
    router_url: withoutPassword(s.routerUrl),
    engine_url: withoutPassword(s.engineUrl),
    values,
    // Which credential each family's origin gets (none where none was configured for it).
    credentials: routes,
    surfaces: probes,
    ...(account ? { account } : {}),
  };
  if (io.json) io.printJson(summary);
  else {
    io.println(
      renderFields(io, [
        ['profile', `${s.profile} (${s.profileSource})`],
        ['config', f.store().path],
        ['base URL', withoutPassword(s.baseUrl)],
        ['router URL', withoutPassword(s.routerUrl)],
        ['engine URL', s.engineUrl === s.baseUrl ? undefined : withoutPassword(s.engineUrl)],
        ['API key', values.api_key!.value ? `${values.api_key!.value} (${values.api_key!.source})` : 'none'],
        ['router token', s.values.router_token.value ? `${values.router_token!.value} (${values.router_token!.source})` : s.routerToken ? 'the API key' : 'none'],
        ['deployment', values.deployment!.value],
        ['engine key', values.engine_key!.value ? `${values.engine_key!.value} (${values.engine_key!.source})` : undefined],
        ['partner key', values.partner_key!.value ? `${values.partner_key!.value} (${values.partner_key!.source})` : undefined],
        ['partner token', values.partner_token!.value ? `${values.partner_token!.value} (${values.partner_token!.source})` : undefined],
        ['account', account ? sanitizeLine(account.status) : undefined],
      ]),
    );
    io.println('');
    io.println(renderTable(io, ['family', 'origin', 'credential sent'], routes.map((r) => [r.family, r.origin, r.credential ? `${r.credential} ${r.value} (${r.source})` : `none${r.withheld ? `: ${r.withheld}` : ''}`])));
    if (probes.length) {
      io.println('');
      // An accepted probe's status is the one it was meant to get (the job API's 404 for a made-up
      // job id): beside "accepted" it reads as a failure, so it is left to --json.
      io.println(renderTable(io, ['family', 'verdict', 'status', 'detail'], probes.map((r) => [r.family, r.verdict, r.verdict === 'accepted' ? '' : (r.status ?? ''), r.message])));
    }
  }
  if (!s.apiKey && !s.routerToken) io.info(`${io.errStyle.yellow('hint:')} ${NO_KEY_HINT}${probes.length ? '' : ' (a self-hosted server may need none)'}`);
  if (probes.some((r) => r.verdict === 'rejected' || r.verdict === 'not_enabled')) return ExitCode.AUTH;
  if (probes.some((r) => r.verdict === 'unreachable' || r.verdict === 'error')) return ExitCode.ERROR;
  return 0;
}

export default defineVerb({
  path: ['auth', 'status'],
  args: {},
  options: options(),
  help: { summary: 'Show the profile, its URLs, masked credentials and where each goes, and whether accepted', after: ['\nExamples:\n  $ wes auth status\n  $ wes auth status --json | jq .surfaces'] },
  settingsUse: { tolerateBadValues: true },
  run,
});
