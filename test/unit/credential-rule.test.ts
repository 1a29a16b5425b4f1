// The one rule of which credential an origin gets (src/http/credential-rule.ts), as the library's
// clients apply it: the API key to the base URL's origin, the router token to the router's, the
// engine key to the engine's; an engine on an origin of its own never gets the API key.
import { describe, expect, it } from 'vitest';
import { createClients } from '../../src/index.js';

const at = (url: string) => new URL(url);

describe('which credential an origin gets', () => {
  it('an engine URL of its own: the engine key or nothing; the API key stays with the base URL', async () => {
    const plain = createClients({ baseUrl: 'http://jobs.test:8189', engineUrl: 'http://gpu.test:8188', apiKey: 'job-key', routerToken: 'router-token' });
    const keyed = createClients({ baseUrl: 'http://jobs.test:8189', engineUrl: 'http://gpu.test:8188', apiKey: 'job-key', engineKey: 'engine-key' });
    try {
      expect(plain.http.credentialFor('jobs', at('http://jobs.test:8189/api/v2/jobs'))).toBe('job-key');
      expect(plain.http.credentialFor('legacy', at('http://gpu.test:8188/api/queue'))).toBeUndefined();
      expect(plain.http.credentialFor('legacy', at('ws://gpu.test:8188/ws'))).toBeUndefined();
      expect(plain.http.credentialFor('models', at('http://jobs.test:8189/v1/models'))).toBe('router-token');
      expect(keyed.http.credentialFor('legacy', at('ws://gpu.test:8188/ws'))).toBe('engine-key');
      expect(keyed.http.credentialHeaders('legacy', at('http://gpu.test:8188/api/queue'))).toEqual({ 'x-api-key': 'engine-key' });
      // The engine key is the engine's: not the job API's, nor another host's.
      expect(keyed.http.credentialFor('jobs', at('http://gpu.test:8188/api/v2/jobs'))).toBeUndefined();
      expect(keyed.http.credentialFor('legacy', at('http://jobs.test:8189/api/queue'))).toBeUndefined();
    } finally {
      await Promise.all([plain.close(), keyed.close()]);
    }
  });

  it('the engine on the base URL (no engine URL): the cloud API v1 there takes the API key, unless an engine key is set', async () => {
    const cloud = createClients({ baseUrl: 'https://cloud.test', apiKey: 'job-key' });
    const own = createClients({ baseUrl: 'https://cloud.test', apiKey: 'job-key', engineKey: 'engine-key' });
    try {
      expect(cloud.http.credentialFor('legacy', at('wss://cloud.test/ws'))).toBe('job-key');
      expect(own.http.credentialFor('legacy', at('https://cloud.test/api/prompt'))).toBe('engine-key');
      expect(own.http.credentialFor('jobs', at('https://cloud.test/api/v2/jobs'))).toBe('job-key');
    } finally {
      await Promise.all([cloud.close(), own.close()]);
    }
  });
});
