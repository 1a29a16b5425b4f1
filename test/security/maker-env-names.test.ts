// The maker's environment names (COMFY_API_KEY, COMFY_BASE_URL), as users of its SDKs export them:
// honoured when neither flag, WES_* variable nor profile sets the value; `doctor` says which name
// it used; and a key found only in COMFY_API_KEY goes only to the origin of COMFY_BASE_URL or the
// maker's hosted service, never to a server wes was pointed at by another name (a local engine).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { ProfileStore } from '../../src/config/store.js';
import { resolveSettings } from '../../src/config/settings.js';
import { runWes } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import { carried, startRecordingForwarder, type RecordingForwarder } from '../helpers/recording-forwarder.js';
import { sampleWorkflow } from '../dev-server/legacy-kit.js';
import { useTempDir, writeTemp } from '../cli/jobs-env.js';

const MAKER_KEY = 'comfyui-maker-key-0123456789';

const dirs: string[] = [];
function store(): ProfileStore {
  const dir = mkdtempSync(join(tmpdir(), 'wes-maker-'));
  dirs.push(dir);
  return new ProfileStore(dir);
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('settings from the maker\'s names', () => {
  it('come after the flag, WES_* and the profile; blank counts as unset; the source names the variable', async () => {
    const env = { COMFY_API_KEY: ` ${MAKER_KEY} `, COMFY_BASE_URL: 'https://deploy.example.test' };
    const fromMaker = resolveSettings({}, env, store());
    expect([fromMaker.baseUrl, fromMaker.apiKey, fromMaker.values.api_key.variable]).toEqual(['https://deploy.example.test', MAKER_KEY, 'COMFY_API_KEY']);
    expect(resolveSettings({}, { ...env, WES_API_KEY: 'wes-key' }, store()).apiKey).toBe('wes-key');
    const saved = store();
    await saved.set('default', 'api_key', 'saved-key');
    await saved.set('default', 'base_url', 'https://saved.example.test');
    expect([resolveSettings({}, env, saved).apiKey, resolveSettings({}, env, saved).baseUrl]).toEqual(['saved-key', 'https://saved.example.test']);
    expect(resolveSettings({}, { COMFY_API_KEY: '  ', COMFY_BASE_URL: '' }, store()).values.api_key.value).toBeUndefined();
  });

  it('a COMFY_API_KEY goes to the origin of COMFY_BASE_URL and the hosted service only', () => {
    const onDeployment = resolveSettings({}, { COMFY_API_KEY: MAKER_KEY, COMFY_BASE_URL: 'https://deploy.example.test/api' }, store());
    expect([onDeployment.apiKey, onDeployment.keyOnlyFor]).toEqual([MAKER_KEY, ['https://deploy.example.test', 'https://cloud.comfy.org', 'https://api.comfy.org']]);
    const hosted = resolveSettings({ baseUrl: 'https://cloud.comfy.org', routerUrl: 'https://api.comfy.org' }, { COMFY_API_KEY: MAKER_KEY }, store());
    expect([hosted.apiKey, hosted.routerToken]).toEqual([MAKER_KEY, MAKER_KEY]);
    // Pointed elsewhere by wes's own names: the key stays home.
    const local = resolveSettings({}, { COMFY_API_KEY: MAKER_KEY, WES_BASE_URL: 'http://127.0.0.1:8188' }, store());
    expect([local.apiKey, local.routerToken]).toEqual([undefined, undefined]);
    const defaulted = resolveSettings({}, { COMFY_API_KEY: MAKER_KEY }, store());
    expect(defaulted.apiKey).toBeUndefined(); // the default base URL is a local dev-server
    // A wes key is the user's own for the base URL, whatever the maker's names say.
    expect(resolveSettings({}, { WES_API_KEY: 'wes-key', WES_BASE_URL: 'http://127.0.0.1:8188' }, store()).apiKey).toBe('wes-key');
  });
});

describe('on the wire', () => {
  let server: DevServerHandle;
  let jobs: RecordingForwarder;
  let engine: RecordingForwarder;
  beforeAll(async () => {
    server = await startFast({ deployment: 'self-hosted', jobsPort: 0, stepMs: 2 });
    jobs = await startRecordingForwarder(server.jobsUrl!);
    engine = await startRecordingForwarder(server.url);
  });
  afterAll(async () => {
    await jobs?.close();
    await engine?.close();
    await server?.close();
  });
  const dir = useTempDir();

  it('COMFY_BASE_URL with COMFY_API_KEY: the key goes to that origin, not to the engine named by WES_ENGINE_URL; doctor names both', async () => {
    const env = { COMFY_BASE_URL: jobs.url, COMFY_API_KEY: MAKER_KEY, WES_ENGINE_URL: engine.url };
    const submitted = await runWes(['jobs', 'submit', writeTemp(dir(), sampleWorkflow(1, 'maker')), '--wait'], { env });
    expect(submitted.code, submitted.stderr).toBe(0);
    const queue = await runWes(['legacy', 'queue'], { env });
    expect(queue.code, queue.stderr).toBe(0);
    const doctor = await runWes(['doctor', '--json'], { env });
    const checks = JSON.parse(doctor.stdout) as Array<{ check: string; family: string | null; detail: string }>;
    expect(checks[0]!.detail).toContain(`base URL from COMFY_BASE_URL, API key from COMFY_API_KEY (only for ${jobs.url}, https://cloud.comfy.org, https://api.comfy.org)`);
    expect(checks.find((c) => c.check === 'credential' && c.family === 'jobs')!.detail).toContain(`from COMFY_API_KEY, sent only to ${jobs.url}`);
    expect(jobs.arrived.some((r) => r.headers.authorization === `Bearer ${MAKER_KEY}`)).toBe(true);
    expect(engine.arrived.length).toBeGreaterThan(0);
    for (const r of engine.arrived) expect(carried(r)).not.toContain(MAKER_KEY);
  }, 60_000);

  it('WES_BASE_URL names a local server: a key only in COMFY_API_KEY is not sent there, and doctor says where it goes', async () => {
    const from = jobs.arrived.length;
    const env = { WES_BASE_URL: jobs.url, COMFY_API_KEY: MAKER_KEY };
    const listed = await runWes(['jobs', 'submit', writeTemp(dir(), sampleWorkflow(1, 'local')), '--wait'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const doctor = await runWes(['doctor', '--json'], { env });
    const checks = JSON.parse(doctor.stdout) as Array<{ check: string; family: string | null; detail: string }>;
    expect(checks.find((c) => c.check === 'credential' && c.family === 'jobs')!.detail).toBe(`accepted: no credential sent to ${jobs.url} (COMFY_API_KEY goes only to https://cloud.comfy.org, https://api.comfy.org)`);
    for (const r of jobs.arrived.slice(from)) expect(carried(r)).not.toContain(MAKER_KEY);
  });
});
