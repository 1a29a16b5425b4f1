// The checks of `wes doctor`, from the most basic to the most specific: settings resolve, the
// config file is private, each API family answers, each accepts its credential, and the local
// clock agrees with the servers' Date headers.
import { statSync } from 'node:fs';
import type { Factory } from '../../factory.js';
import type { Settings } from '../../config/settings.js';
import { describeSource } from '../../config/settings.js';
import { credentialRoutes, describeRoute } from '../auth/credential-routes.js';
import { API_FAMILIES, type ApiFamily, ExitCode, WesError, exitCodeForApi, toWesError } from '../../errors.js';
import { hintFor } from '../../render/error.js';
import { SURFACE_NAME, probeFamily, type ProbeResult, type SurfaceName } from '../../clients/probe.js';
import { connectionHint, triedUrl } from './connection-hint.js';
import { describeEngine, engineOf } from '../legacy/engine.js';
import type { EngineIdentity } from '../../clients/legacy/engine.js';
import { modelsPath } from '../../protocol/model-ids.js';
import { VERSION } from '../../factory-version.js';
import { blake3Backend, nativeBlake3File } from '../../util/blake3.js';
import { buildKind } from '../../util/sea-host.js';

export type CheckName = 'settings' | 'config_file' | 'reachable' | 'credential' | 'clock' | 'build';
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** One row of the report (`--json` prints the array of these). */
export interface Check {
  check: CheckName;
  family: ApiFamily | null;
  /** The family's old name, for scripts reading `--json`. */
  surface: SurfaceName | null;
  status: CheckStatus;
  detail: string;
  hint: string | null;
  url: string | null;
  http_status: number | null;
  request_id: string | null;
  /** The exit code this failure stands for (0 unless status is fail). */
  exit_code: number;
}

export const MAX_CLOCK_SKEW_SECONDS = 60;

function row(check: CheckName, status: CheckStatus, detail: string, more: Partial<Check> = {}): Check {
  return { check, family: null, surface: null, status, detail, hint: null, url: null, http_status: null, request_id: null, exit_code: 0, ...more };
}

export function settingsCheck(f: Factory): { check: Check; settings?: Settings } {
  try {
    const s = f.settings();
    const base = s.values.base_url.source === 'default' ? 'the default' : describeSource(s.values.base_url, 'base_url');
    // A key read under the maker's name is said here too: it is sent only to that name's origins.
    const makerKey = s.values.api_key.variable ? `, API key from ${s.values.api_key.variable} (only for ${s.keyOnlyFor!.join(', ')})` : '';
    return { check: row('settings', 'pass', `profile ${s.profile} (${s.profileSource}), base URL from ${base}${makerKey}`), settings: s };
  } catch (thrown) {
    const err = toWesError(thrown);
    const exit = err.exitCode === ExitCode.ERROR ? ExitCode.USAGE : err.exitCode; // an unreadable config file is a local file problem
    return { check: row('settings', 'fail', err.message, { hint: err.hint ?? 'fix the setting named above (`wes config list` shows where each comes from)', exit_code: exit }) };
  }
}

export function configFileCheck(f: Factory): Check {
  const path = f.store().path;
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return row('config_file', 'pass', `not created yet (nothing stored): ${path}`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    return row('config_file', 'fail', `mode 0${mode.toString(8)}, other users can read it: ${path}`, {
      hint: `chmod 600 '${path}'`,
      exit_code: ExitCode.ERROR,
    });
  }
  return row('config_file', 'pass', `mode 0${mode.toString(8)}: ${path}`);
}

/**
 * Which credential a family gets, masked, where it came from and the one origin it goes to:
 * "Bearer …6789 (40 chars) from WES_API_KEY, sent only to https://api.example.com".
 */
export function credentialDescription(s: Settings, family: ApiFamily): string {
  return describeRoute(credentialRoutes(s).find((r) => r.family === family)!);
}

export interface TimedProbe {
  probe: ProbeResult;
  elapsedMs: number;
  /** Local time when the answer arrived, for the clock check. */
  receivedAt: number;
}

export async function runProbes(f: Factory): Promise<TimedProbe[]> {
  const http = f.http();
  const routerApi = f.settings().routerApi;
  return Promise.all(
    API_FAMILIES.map(async (family) => {
      const started = performance.now();
      const probe = await probeFamily(http, family, { routerApi });
      return { probe, elapsedMs: Math.round(performance.now() - started), receivedAt: f.clock.now() };
    }),
  );
}

/**
 * Which server answers, said on its row: ": a self-hosted ComfyUI engine (0.3.18)" on the v1 row,
 * the routes the router answered on the models row.
 */
function serverNote(probe: ProbeResult, engine: EngineIdentity | null): string {
  if (probe.family === 'models' && probe.router_api) {
    return `: router routes ${modelsPath(probe.router_api)} (${probe.router_api === 'v1' ? "the interface's" : 'the published ones'})`;
  }
  if (probe.family !== 'legacy' || !engine) return '';
  return `: ${describeEngine(engine)}${engine.how === 'setting' ? ' (as the engine setting says)' : ''}`;
}

/**
 * The rows of a family this server does not serve although it serves others on the same origin
 * (a job API server in front of an engine serves the job API only): a warning naming what it
 * serves and the setting that points the family elsewhere, not a failure.
 */
function notServedHere(probe: ProbeResult, served: ApiFamily[]): Check[] {
  const where = { family: probe.family, surface: probe.surface, url: probe.url, http_status: probe.status, request_id: probe.request_id };
  const elsewhere: Record<ApiFamily, string> = {
    legacy: 'for the legacy API of the engine behind it, set its URL: --engine-url, WES_ENGINE_URL or `wes config set engine_url URL`',
    models: 'for a model router, set its URL: --router-url, WES_ROUTER_URL or `wes config set router_url URL`',
    jobs: 'for a job API, point --base-url (or `wes config set base_url URL`) at a server that serves it',
  };
  return [
    row('reachable', 'warn', `not served by ${new URL(probe.url).origin}, which serves ${served.join(' and ')}`, { ...where, hint: elsewhere[probe.family] }),
    row('credential', 'skip', 'not checked: this API is not served here', where),
  ];
}

export function familyChecks(s: Settings, timed: TimedProbe, engine: EngineIdentity | null = null, servedHere: ApiFamily[] = []): Check[] {
  const { probe } = timed;
  const where = { family: probe.family, surface: probe.surface, url: probe.url, http_status: probe.status, request_id: probe.request_id };
  const credential = credentialDescription(s, probe.family);
  const answered = `${new URL(probe.url).origin} answered in ${timed.elapsedMs} ms${serverNote(probe, engine)}`;
  if (engine?.kind === 'self-hosted' && probe.verdict === 'error' && probe.status === 404 && probe.family !== 'legacy') {
    // A ComfyUI engine serves only v1: the other families are missing by design, not broken.
    const what = probe.family === 'jobs' ? 'job API v2 (use `wes legacy`)' : 'model router';
    return [
      row('reachable', 'warn', `not served: ${describeEngine(engine)} has no ${what}`, where),
      row('credential', 'skip', 'not checked: this API is not served here', where),
    ];
  }
  switch (probe.verdict) {
    case 'accepted':
      return [
        row('reachable', 'pass', answered, where),
        row('credential', 'pass', `accepted: ${credential}`, where),
      ];
    case 'rejected':
    case 'not_enabled': {
      const code = probe.verdict === 'not_enabled' ? 'not_enabled' : probe.status === 403 ? 'forbidden' : 'unauthorized';
      const hint = hintFor(new WesError(probe.message, { exitCode: ExitCode.AUTH, code })) ?? null;
      return [
        row('reachable', 'pass', answered, where),
        row('credential', 'fail', `refused ${credential}: ${probe.message}`, { ...where, hint, exit_code: ExitCode.AUTH }),
      ];
    }
    case 'unreachable': {
      const tried = triedUrl(s, probe.message);
      return [
        row('reachable', 'fail', probe.message, { ...where, hint: connectionHint(tried, s.profile, false), exit_code: ExitCode.ERROR }),
        row('credential', 'skip', 'not checked: this API did not answer', where),
      ];
    }
    case 'error':
      if (probe.status === 404 && servedHere.length > 0) return notServedHere(probe, servedHere);
      return [
        row('reachable', 'fail', `answered, but not as the ${probe.family} API: ${probe.message}`, {
          ...where,
          hint: notServedHint(probe.family),
          exit_code: probe.status === null ? ExitCode.ERROR : exitCodeForApi(probe.status, undefined),
        }),
        row('credential', 'skip', 'not checked: this API answered with an error', where),
      ];
  }
}

function notServedHint(family: ApiFamily): string {
  if (family === 'models') return 'is the router URL right? Set it with --router-url, WES_ROUTER_URL or `wes config set router_url URL`';
  return 'is the base URL right (and --deployment, for a serverless gateway)? `wes config list` shows where it comes from';
}

/** Local clock minus server clock, from the Date header of each answer; the largest one counts. */
export function clockCheck(probes: TimedProbe[]): Check {
  // The Date header counts whole seconds: the server's clock was up to one second past it.
  const skews = probes
    .filter((p) => p.probe.server_date)
    .map((p) => ({ family: p.probe.family, seconds: (p.receivedAt - Date.parse(p.probe.server_date!)) / 1000 - 0.5 }))
    .filter((x) => Number.isFinite(x.seconds));
  if (!skews.length) return row('clock', 'skip', 'no answer carried a Date header');
  const worst = skews.reduce((a, b) => (Math.abs(b.seconds) > Math.abs(a.seconds) ? b : a));
  const rounded = Math.round(worst.seconds);
  const text = rounded === 0 ? 'agrees with the server' : `${Math.abs(rounded)} s ${rounded > 0 ? 'ahead of' : 'behind'} the server`;
  if (Math.abs(worst.seconds) > MAX_CLOCK_SKEW_SECONDS) {
    return row('clock', 'warn', `local clock is ${text} (${worst.family})`, {
      hint: 'set the system clock (e.g. enable NTP); signed URLs and tokens are only valid for a limited time',
    });
  }
  return row('clock', 'pass', `local clock ${text} (±${MAX_CLOCK_SKEW_SECONDS} s allowed)`);
}

/**
 * Which wes runs and how it hashes: the npm package or the single executable (`npm run
 * build:sea`), its node and platform, and blake3 native (with the addon's file) or WASM. A fact,
 * never a failure: the WASM fallback works, only slower.
 */
export function buildCheck(f: Factory): Check {
  const kind = buildKind() === 'sea' ? `single executable ${process.execPath}` : 'npm package';
  const setting = f.hashing();
  const backend = blake3Backend(setting);
  let hash: string;
  if (backend === 'native') hash = `blake3 native (${nativeBlake3File()})`;
  else if (setting.forceWasm) hash = 'blake3 WASM (WES_BLAKE3=wasm)';
  else hash = 'blake3 WASM (the native addon is not installed or does not load here)';
  return row('build', 'pass', `wes ${VERSION}, ${kind}, node ${process.version} ${process.platform}-${process.arch}; ${hash}`);
}

export async function runChecks(f: Factory): Promise<Check[]> {
  const { check: settings, settings: s } = settingsCheck(f);
  const file = s ? configFileCheck(f) : row('config_file', 'skip', 'not checked: the settings do not resolve');
  if (!s) {
    const skipped = API_FAMILIES.flatMap((family) => [
      row('reachable', 'skip', 'not checked: the settings do not resolve', { family, surface: SURFACE_NAME[family] }),
      row('credential', 'skip', 'not checked: the settings do not resolve', { family, surface: SURFACE_NAME[family] }),
    ]);
    return [settings, file, ...skipped, row('clock', 'skip', 'not checked: the settings do not resolve'), buildCheck(f)];
  }
  const probes = await runProbes(f);
  const v1Answered = probes.some((p) => p.probe.family === 'legacy' && p.probe.verdict !== 'unreachable');
  const engine = v1Answered ? await engineOf(f).catch(() => null) : null;
  // The families a server answered as itself, by origin: a routing 404 beside them means "not served here".
  const origin = (p: TimedProbe) => new URL(p.probe.url).origin;
  const servedAt = (p: TimedProbe) => probes.filter((q) => q !== p && q.probe.verdict !== 'unreachable' && q.probe.verdict !== 'error' && origin(q) === origin(p)).map((q) => q.probe.family);
  return [settings, file, ...probes.flatMap((p) => familyChecks(s, p, engine, servedAt(p))), clockCheck(probes), buildCheck(f)];
}

/**
 * 0 when nothing failed (warnings do not count); otherwise the exit code of the most basic
 * failure, in check order: settings (2), config file (1), reachability (1, or the answer's
 * class), credentials (4).
 */
export function doctorExitCode(checks: Check[]): number {
  const order: CheckName[] = ['settings', 'config_file', 'reachable', 'credential', 'clock'];
  for (const name of order) {
    const failed = checks.find((c) => c.check === name && c.status === 'fail');
    if (failed) return failed.exit_code;
  }
  return ExitCode.OK;
}
