// HMAC-signed download URLs on the second listener. The signature covers the target (the path
// after /signed/) and the expiry, so changing either is detected.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { StoredOutput, UrlSigner } from '../contract.js';

export const SIGNED_PREFIX = '/signed/';

export type Verdict = { ok: true; target: string } | { ok: false; reason: 'altered' | 'expired' };

export class HmacUrlSigner implements UrlSigner {
  private readonly key = randomBytes(32);
  /** Set once the signed listener is bound. */
  origin = '';

  constructor(private readonly defaultTtlMs: number) {}

  private mac(target: string, expires: string): string {
    return createHmac('sha256', this.key).update(`${target}\n${expires}`).digest('hex');
  }

  sign(target: string, ttlMs = this.defaultTtlMs): { url: string; expiresAt: string } {
    const expiresMs = Date.now() + ttlMs;
    const expires = String(expiresMs);
    const path = target.replace(/^\/+/, '');
    const url = `${this.origin}${SIGNED_PREFIX}${path}?expires=${expires}&sig=${this.mac(path, expires)}`;
    return { url, expiresAt: new Date(expiresMs).toISOString() };
  }

  /** The target is the asset id followed by the file name, so a download gets a readable name. */
  signAsset(asset: StoredOutput, ttlMs?: number): { url: string; expiresAt: string } {
    const name = asset.name.split('/').pop() || 'download';
    return this.sign(`${asset.id}/${encodeURIComponent(name)}`, ttlMs);
  }

  verify(url: URL): Verdict {
    const target = url.pathname.startsWith(SIGNED_PREFIX) ? url.pathname.slice(SIGNED_PREFIX.length) : null;
    const expires = url.searchParams.get('expires');
    const sig = url.searchParams.get('sig');
    if (target === null || expires === null || sig === null || !/^\d+$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) {
      return { ok: false, reason: 'altered' };
    }
    const want = Buffer.from(this.mac(target, expires), 'hex');
    if (!timingSafeEqual(want, Buffer.from(sig, 'hex'))) return { ok: false, reason: 'altered' };
    if (Number(expires) < Date.now()) return { ok: false, reason: 'expired' };
    return { ok: true, target };
  }
}

/** The asset id a signed target refers to (its first segment). */
export function assetIdOfTarget(target: string): string {
  return decodeURIComponent(target.split('/')[0] ?? '');
}
