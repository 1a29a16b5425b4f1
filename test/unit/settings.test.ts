import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProfileStore } from '../../src/config/store.js';
import { resolveSettings, normalizeBaseUrl } from '../../src/config/settings.js';
import { UsageError } from '../../src/errors.js';
import { maskSecret } from '../../src/config/keys.js';

const dirs: string[] = [];
function store(): ProfileStore {
  const dir = mkdtempSync(join(tmpdir(), 'wes-set-'));
  dirs.push(dir);
  return new ProfileStore(dir);
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('settings precedence', () => {
  it('flag beats env beats profile beats default', async () => {
    const s = store();
    await s.set('default', 'base_url', 'http://profile.test');
    expect(resolveSettings({}, {}, s).baseUrl).toBe('http://profile.test');
    expect(resolveSettings({}, { WES_BASE_URL: 'http://env.test' }, s).baseUrl).toBe('http://env.test');
    expect(resolveSettings({ baseUrl: 'http://flag.test' }, { WES_BASE_URL: 'http://env.test' }, s).baseUrl).toBe('http://flag.test');
    expect(resolveSettings({}, {}, store()).baseUrl).toBe('http://127.0.0.1:8188');
  });

  it('selects the profile by flag, WES_PROFILE, then the stored current profile', async () => {
    const s = store();
    await s.set('prod', 'api_key', 'prod-key');
    await s.set('ci', 'api_key', 'ci-key');
    await s.setCurrentProfile('prod');
    expect(resolveSettings({}, {}, s).apiKey).toBe('prod-key');
    expect(resolveSettings({}, { WES_PROFILE: 'ci' }, s).apiKey).toBe('ci-key');
    expect(resolveSettings({ profile: 'prod' }, { WES_PROFILE: 'ci' }, s).apiKey).toBe('prod-key');
  });

  it('defaults the router URL and token to the base URL and API key', () => {
    const r = resolveSettings({ baseUrl: 'http://b.test/', apiKey: 'k' }, {}, store());
    expect(r.routerUrl).toBe('http://b.test');
    expect(r.routerToken).toBe('k');
  });

  it('substitutes a valid {deployment} and refuses an invalid one', () => {
    expect(resolveSettings({ baseUrl: 'https://gw.test/deployment/{deployment}', deployment: 'my-dep' }, {}, store()).baseUrl).toBe('https://gw.test/deployment/my-dep');
    expect(() => resolveSettings({ baseUrl: 'https://gw.test/{deployment}', deployment: 'Bad_Dep' }, {}, store())).toThrow(UsageError);
    expect(() => normalizeBaseUrl('https://gw.test/{deployment}', undefined, 'base URL')).toThrow(/deployment/);
    expect(() => normalizeBaseUrl('ftp://x', undefined, 'base URL')).toThrow(/http/);
  });

  it('writes the profile file with mode 0600 and reads back what conf wrote', async () => {
    const s = store();
    await s.set('default', 'api_key', 'secret');
    expect(new ProfileStore(s.dir).profile('default')).toEqual({ api_key: 'secret' });
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    expect(statSync(s.cacheDir('default', 'schemas')).mode & 0o777).toBe(0o700);
  });
});

describe('maskSecret', () => {
  it('shows at most the last four characters', () => {
    expect(maskSecret('abcdefghijklmnopqrstuvwxyz')).toBe('…wxyz (26 chars)');
    expect(maskSecret('0123456789abcdef')).toBe('…cdef (16 chars)');
    expect(maskSecret('0123456789abcde')).toBe('******** (15 chars)');
    expect(maskSecret('short')).not.toContain('short');
  });
});
