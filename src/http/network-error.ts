// A connection that failed, said as what it means for the user: a server that is not running, a
// response that stalled or broke, a TLS server that is not one (or an http: server asked for
// https:), a certificate Node does not trust, a proxy that refused. The ones retrying cannot heal
// (CANNOT_HEAL) are given up at once.
import { ExitCode, HANDSHAKE_FAILURES, NetworkError, READ_TIMEOUT_HINT, WesError } from '../errors.js';
import { proxyRefusal, type ProxyRoute } from './proxy-env.js';

/** Failures that are the same on every attempt: retrying only delays the message. */
export const CANNOT_HEAL: ReadonlySet<string> = new Set([...HANDSHAKE_FAILURES, 'proxy_auth_required', 'proxy_refused']);

/** OpenSSL's verdicts on a certificate chain it cannot trust, and what each means. */
const UNTRUSTED: Record<string, string> = {
  SELF_SIGNED_CERT_IN_CHAIN: 'signed by a certificate authority Node does not know',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'signed by a certificate authority Node does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'signed by a certificate authority Node does not know',
  UNABLE_TO_GET_ISSUER_CERT: 'signed by a certificate authority Node does not know',
  CERT_UNTRUSTED: 'not trusted',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'for another host name',
};

const CA_HINT = 'if your network signs with its own certificate authority (a private CA, or a company proxy that inspects TLS), give Node its certificate: NODE_EXTRA_CA_CERTS=/path/to/ca.pem';

interface Failure {
  code?: string;
  message?: string;
  cause?: unknown;
}

/** The error itself or the one it wraps (undici wraps a proxy tunnel's TLS failure). */
function codes(err: Failure): Failure[] {
  const cause = err.cause as Failure | undefined;
  return cause && typeof cause === 'object' ? [err, cause] : [err];
}

function tlsFailure(err: Failure, url: URL): WesError | undefined {
  for (const e of codes(err)) {
    if (e.code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long/i.test(e.message ?? '')) {
      const plain = new URL(url.origin);
      plain.protocol = 'http:';
      return new WesError(`${url.origin} does not speak TLS (it answered in plain HTTP, not https)`, {
        exitCode: ExitCode.ERROR,
        code: 'not_tls',
        hint: `use ${plain.origin} instead (in --base-url, WES_BASE_URL or the profile's base_url)`,
        cause: err,
      });
    }
    const why = e.code ? UNTRUSTED[e.code] : undefined;
    if (why) {
      const hint = e.code === 'CERT_HAS_EXPIRED' || e.code === 'CERT_NOT_YET_VALID'
        ? 'the server\'s operator has to renew its certificate (or the local clock is wrong)'
        : e.code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? 'check the host name in the URL' : CA_HINT;
      return new WesError(`the certificate of ${url.origin} is ${why} (${e.code}); the connection was not made`, { exitCode: ExitCode.ERROR, code: 'tls_untrusted', hint, cause: err });
    }
  }
  return undefined;
}

/** undici's words for a proxy that refused: a CONNECT answered other than 200, or a forwarded request answered 407. */
function refusedStatus(err: Failure): number | undefined {
  const message = err.message ?? '';
  const status = /Proxy response \((\d{3})\)/.exec(message)?.[1] ?? (/Proxy Authentication Required \(407\)/.test(message) ? '407' : undefined);
  return status === undefined ? undefined : Number(status);
}

export function isProxyRefusal(err: unknown): boolean {
  return refusedStatus(err as Failure) !== undefined;
}

/** A failure through a proxy: its refusal (407, or a tunnel it would not open), or the proxy itself unreachable. */
function proxyFailure(err: Failure, url: URL, route: ProxyRoute): WesError | undefined {
  const status = refusedStatus(err);
  if (status !== undefined) return proxyRefusal(route, status, url.origin);
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new NetworkError(
      `could not connect to the proxy ${route.shown} (from ${route.from}; ${err.code}) to reach ${url.origin}`,
      `check ${route.from}; to reach ${url.hostname} without the proxy, add it to NO_PROXY`,
      err,
    );
  }
  return undefined;
}

export function networkError(err: unknown, url: URL, readTimeoutMs: number, route?: ProxyRoute): WesError {
  const e = err as Failure;
  const what = e.code ? `${e.code}` : (e.message ?? String(err));
  const known = (route && proxyFailure(e, url, route)) ?? tlsFailure(e, url);
  if (known) return known;
  if (isReadTimeout(err)) {
    return new NetworkError(`${url.origin} sent nothing for ${readTimeoutMs / 1000} s (read timeout); the response was abandoned`, READ_TIMEOUT_HINT, err);
  }
  if (e.code === 'ECONNREFUSED') {
    return new NetworkError(
      `could not connect to ${url.origin} (connection refused)`,
      'is the server running? Start a local one with `wes dev-server`, or point wes elsewhere with --base-url or `wes auth login`',
      err,
    );
  }
  if (e.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || e.code === 'UND_ERR_SOCKET' || e.code === 'ECONNRESET') {
    return new NetworkError(`the connection to ${url.origin} broke mid-response (${what})`, 'try again; reads are retried automatically (--retries)', err);
  }
  return new NetworkError(`request to ${url.origin} failed: ${e.message ?? what}`, undefined, err);
}

export function isReadTimeout(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}
