// A bare URL endpoint of a batch (--via URL, --base-url repeated) gets the command's credentials
// (API key, router token, partner key) only when its origin is the configured base URL's.
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import { urlSettings } from '../../src/features/batch/via.js';

const base = resolveSettings({}, { WES_BASE_URL: 'https://api.example.com/v', WES_API_KEY: 'k-1', WES_PARTNER_KEY: 'p-1', WES_ROUTER_TOKEN: 'r-1' }, undefined);

describe('urlSettings', () => {
  it('keeps the credentials for the configured origin, whatever the path', () => {
    const { settings, withheld } = urlSettings(base, 'https://api.example.com/deployments/two');
    expect([settings.baseUrl, settings.apiKey, settings.partnerKey, settings.routerToken, withheld]).toEqual(['https://api.example.com/deployments/two', 'k-1', 'p-1', 'r-1', false]);
  });

  it('withholds them from another host, scheme or port, and says so', () => {
    for (const url of ['https://other.example.com', 'http://api.example.com', 'https://api.example.com:8443', 'https://api.example.com.evil.test']) {
      const { settings, withheld } = urlSettings(base, url);
      expect([settings.apiKey, settings.partnerKey, settings.routerToken, withheld], url).toEqual([undefined, undefined, undefined, true]);
    }
  });

  it('has nothing to withhold when no credential is configured', () => {
    const open = resolveSettings({}, { WES_BASE_URL: 'http://127.0.0.1:8188' }, undefined);
    expect(urlSettings(open, 'http://127.0.0.1:9000').withheld).toBe(false);
  });
});
