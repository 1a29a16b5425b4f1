// --verbose shows requests but never a secret: credential headers and token-like query values.
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'set-cookie', 'proxy-authorization']);
const SECRET_QUERY = /^(token|api_key|apikey|key|signature|sig|access_token)$/i;

export function redactUrl(url: URL | string): string {
  const u = new URL(String(url));
  for (const name of [...u.searchParams.keys()]) {
    if (SECRET_QUERY.test(name)) u.searchParams.set(name, 'REDACTED');
  }
  if (u.password) u.password = 'REDACTED';
  return u.toString();
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? (k.toLowerCase() === 'authorization' ? v.replace(/ .*/, ' REDACTED') : 'REDACTED') : v;
  }
  return out;
}
