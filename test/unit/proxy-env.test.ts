// Which requests go through a proxy (src/http/proxy-env.ts): the rules curl and gh keep, and
// loopback kept direct unless asked.
import { describe, expect, it } from 'vitest';
import { isLoopback, proxyFor, proxySettings } from '../../src/http/proxy-env.js';

const via = (env: Record<string, string>, url: string) => proxyFor(proxySettings(env), new URL(url))?.shown;

describe('proxy selection', () => {
  it('takes HTTPS_PROXY for https: and wss:, HTTP_PROXY for http: and ws:, lower case first', () => {
    const env = { HTTPS_PROXY: 'http://secure:1', HTTP_PROXY: 'http://plain:2', https_proxy: 'http://lower:3' };
    expect(via(env, 'https://api.example.com/x')).toBe('http://lower:3');
    expect(via(env, 'wss://api.example.com/ws')).toBe('http://lower:3');
    expect(via(env, 'http://api.example.com/x')).toBe('http://plain:2');
    expect(via({ HTTP_PROXY: 'http://plain:2' }, 'https://api.example.com')).toBeUndefined();
  });

  it('reads a proxy without a scheme as http://, and hides its password', () => {
    expect(via({ HTTPS_PROXY: 'proxy.corp:3128' }, 'https://a.example')).toBe('http://proxy.corp:3128');
    expect(via({ HTTPS_PROXY: 'http://me:pa%40ss@proxy.corp:3128' }, 'https://a.example')).toBe('http://me:REDACTED@proxy.corp:3128');
  });

  it('keeps NO_PROXY hosts, domains, ports and ranges direct', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'internal.corp, .svc,*.lan  api.example.com:8443,10.0.0.0/8' };
    expect(via(env, 'https://internal.corp')).toBeUndefined();
    expect(via(env, 'https://a.b.internal.corp')).toBeUndefined();
    expect(via(env, 'https://x.svc')).toBeUndefined();
    expect(via(env, 'https://box.lan')).toBeUndefined();
    expect(via(env, 'https://notinternal.corp')).toBe('http://p:1');
    expect(via(env, 'https://api.example.com:8443')).toBeUndefined();
    expect(via(env, 'https://api.example.com')).toBe('http://p:1');
    expect(via(env, 'https://10.20.30.40')).toBeUndefined();
    expect(via(env, 'https://11.0.0.1')).toBe('http://p:1');
    expect(via({ ...env, NO_PROXY: '*' }, 'https://anything.example')).toBeUndefined();
  });

  it('never proxies loopback unless WES_PROXY_LOOPBACK=1', () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '127.9.9.9', '[::1]']) {
      expect(isLoopback(new URL(`http://${host}`).hostname)).toBe(true);
      expect(via({ HTTP_PROXY: 'http://p:1' }, `http://${host}:8188`)).toBeUndefined();
      expect(via({ HTTP_PROXY: 'http://p:1', WES_PROXY_LOOPBACK: '1' }, `http://${host}:8188`)).toBe('http://p:1');
    }
    expect(isLoopback('128.0.0.1')).toBe(false);
  });

  it('refuses what is not an HTTP proxy, without its password', () => {
    expect(() => proxySettings({ HTTPS_PROXY: 'socks5://u:pw-hidden@h:1' })).toThrow(/HTTPS_PROXY names a socks5 proxy \(socks5:\/\/u:REDACTED@h:1/);
  });
});
