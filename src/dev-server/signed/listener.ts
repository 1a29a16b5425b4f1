// The signed-URL origin: checks signature and expiry, refuses credentials, serves bytes with
// Range support, streaming so large synthetic outputs never sit in memory.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { DevState } from '../contract.js';
import { newRequestId, parseTarget } from '../core/context.js';
import { runFront } from '../core/front.js';
import { headerName } from '../core/names.js';
import { serveAssetBytes } from './serve-bytes.js';
import { assetIdOfTarget, type HmacUrlSigner } from './signer.js';

const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'cookie'] as const;

function refuse(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export async function serveSigned(req: IncomingMessage, res: ServerResponse, url: URL, state: DevState, signer: HmacUrlSigner): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return refuse(res, 405, 'method_not_allowed', 'signed URLs answer GET and HEAD only', { allow: 'GET, HEAD' });
  }
  const carried = CREDENTIAL_HEADERS.find((h) => req.headers[h] !== undefined);
  if (carried) {
    return refuse(res, 400, 'credential_not_allowed', `a signed URL carries its own authorization; remove the ${carried} header`);
  }
  const verdict = signer.verify(url);
  if (!verdict.ok) {
    return refuse(res, 403, verdict.reason === 'expired' ? 'url_expired' : 'signature_mismatch',
      verdict.reason === 'expired' ? 'this signed URL has expired; re-read the job or asset for a fresh one' : 'signature does not match');
  }
  const asset = state.engine.findAsset(assetIdOfTarget(verdict.target));
  if (!asset) return refuse(res, 404, 'not_found', 'the object is gone');
  const headers = { 'cache-control': 'private, max-age=0', etag: `"${asset.blobHash.replace(/^blake3:/, '')}"` };
  await serveAssetBytes(req, res, state, asset, headers, (size) =>
    refuse(res, 416, 'range_not_satisfiable', `range outside 0-${size}`, { 'content-range': `bytes */${size}` }),
  );
}

export function createSignedListener(state: DevState, signer: HmacUrlSigner): RequestListener {
  return (req, res) => {
    const requestId = newRequestId();
    const url = parseTarget(req.url, signer.origin || 'http://127.0.0.1');
    if (!url) {
      res.setHeader(headerName(state, 'requestId'), requestId);
      return refuse(res, 400, 'invalid_request', 'the request target is not a valid URL');
    }
    void runFront(state, req, res, url.pathname, requestId, () => serveSigned(req, res, url, state, signer), () =>
      refuse(res, 500, 'internal_error', 'unexpected failure'),
    );
  };
}
